<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES">
<context>
    <name>BucketSpin</name>
    <message>
        <source>How many buckets the confidential values are grouped into; &apos;automatic&apos; lets the engine choose for t and k. More buckets keep more detail but need larger groups.</source>
        <translation>En cuántos tramos se agrupan los valores confidenciales; «automático» deja que el motor elija según t y k. Más tramos conservan más detalle, pero exigen grupos más grandes.</translation>
    </message>
</context>
<context>
    <name>CategoriesBox</name>
    <message>
        <source>empty = its declared order, {order}</source>
        <extracomment>the column types whose values are categories (randomized response on the noise route) the page&apos;s bindings, which every field joins (:meth:`bind`) the text field of each column that has had one, by column name</extracomment>
        <translation>vacío = su orden declarado, {order}</translation>
    </message>
    <message>
        <source>e.g. cold|flu|HIV</source>
        <translation>p. ej. resfriado|gripe|VIH</translation>
    </message>
    <message>
        <source>Public categories of {column}</source>
        <translation>Categorías públicas de {column}</translation>
    </message>
    <message>
        <source>{column}:</source>
        <translation>{column}:</translation>
    </message>
</context>
<context>
    <name>Choices</name>
    <message>
        <source>automatic</source>
        <translation>automático</translation>
    </message>
    <message>
        <source>comma ,</source>
        <extracomment>the characters between the values of a CSV file (None: detected when the file is read)</extracomment>
        <translation>coma ,</translation>
    </message>
    <message>
        <source>semicolon ;</source>
        <translation>punto y coma ;</translation>
    </message>
    <message>
        <source>tab</source>
        <translation>tabulador</translation>
    </message>
    <message>
        <source>bar |</source>
        <translation>barra |</translation>
    </message>
    <message>
        <source>point .</source>
        <extracomment>the decimal marks of the numbers in a CSV file (None: detected when the file is read)</extracomment>
        <translation>punto .</translation>
    </message>
</context>
<context>
    <name>DataFrameModel</name>
    <message>
        <source>(missing)</source>
        <translation>(perdido)</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Something went wrong inside tclose; this is a bug, not your mistake.</source>
        <translation>Algo ha fallado dentro de tclose; es un error del programa, no suyo.</translation>
    </message>
    <message>
        <source>The details were written to {path}. The app keeps working.</source>
        <translation>Los detalles se han guardado en {path}. La aplicación sigue funcionando.</translation>
    </message>
</context>
<context>
    <name>ExportPage</name>
    <message>
        <source>5. Export</source>
        <extracomment>the reason of an OutputError that the user may override (replace a JSON file not ours) milliseconds between the last edit of the file name and checking it what the CSV writer offers (the default follows the reader&apos;s decimal mark) why the target cannot be written (&quot;&quot; when it can) and the writer&apos;s reason for it</extracomment>
        <translation>5. Exportar</translation>
    </message>
    <message>
        <source>Write the release. Only the protected table is written, with a description of how it was made; the original file is never changed.</source>
        <translation>Guarde la publicación. Solo se escribe la tabla protegida, con una descripción de cómo se obtuvo; el archivo original nunca se modifica.</translation>
    </message>
    <message>
        <source>The character between values in the CSV file</source>
        <translation>El carácter entre los valores del archivo CSV</translation>
    </message>
    <message>
        <source>The decimal mark of numbers in the CSV file</source>
        <translation>El separador decimal de los números del archivo CSV</translation>
    </message>
    <message>
        <source>Mark the file as UTF-8 so that Excel shows accents right</source>
        <translation>Marcar el archivo como UTF-8 para que Excel muestre bien los acentos</translation>
    </message>
    <message>
        <source>Starts the CSV with a byte-order mark; some older tools dislike it</source>
        <translation>Empieza el CSV con una marca de orden de bytes (BOM); algunas herramientas antiguas no la admiten</translation>
    </message>
    <message>
        <source>{format} keeps the description inside the file</source>
        <translation>{format} guarda la descripción dentro del archivo</translation>
    </message>
    <message>
        <source>{format} puts it in a JSON file beside it</source>
        <translation>{format} la pone en un archivo JSON al lado</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message>
        <source>The file name must end in {name}.</source>
        <translation>El nombre del archivo debe terminar en {name}.</translation>
    </message>
    <message>
        <source>The file name must end in {names} or {last}.</source>
        <translation>El nombre del archivo debe terminar en {names} o {last}.</translation>
    </message>
    <message>
        <source>Also write the release report (HTML) beside it</source>
        <translation>Escribir también el informe de la publicación (HTML) al lado</translation>
    </message>
    <message>
        <source>A self-contained page for the disclosure review board, not for publication: parameters, guarantees with their assumptions, buckets, class sizes, the preview&apos;s plots, information loss, the seed</source>
        <translation>Una página autónoma para el comité de revisión de divulgación, no para publicar: parámetros, garantías con sus supuestos, intervalos, tamaños de las clases, los gráficos de la vista previa, la pérdida de información, la semilla</translation>
    </message>
    <message>
        <source>Also write a DDI codebook (XML) beside it</source>
        <translation>Escribir también un libro de códigos DDI (XML) al lado</translation>
    </message>
    <message>
        <source>A DDI-Codebook 2.5 description for a data catalogue (NADA, the Microdata Library): each released variable with its label, categories and released frequencies, and what was done to it; published facts only</source>
        <translation>Una descripción DDI-Codebook 2.5 para un catálogo de datos (NADA, la Microdata Library): cada variable publicada con su etiqueta, categorías y frecuencias publicadas, y lo que se le hizo; solo datos publicados</translation>
    </message>
    <message>
        <source>Leave the input file&apos;s name out of the published files</source>
        <translation>No poner el nombre del archivo de entrada en los archivos publicados</translation>
    </message>
    <message>
        <source>The description written with the release names the file it was made from unless this is ticked; the report (for the review) always names it</source>
        <translation>La descripción escrita con la publicación nombra el archivo del que se hizo, salvo que se marque esta casilla; el informe (para la revisión) siempre lo nombra</translation>
    </message>
    <message>
        <source>Where the release is written; Enter exports</source>
        <translation>Dónde se guarda la publicación; Intro exporta</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>E&amp;xaminar…</translation>
    </message>
    <message>
        <source>Choose the file to write</source>
        <translation>Elija el archivo que se va a escribir</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Exportar</translation>
    </message>
    <message>
        <source>Write the release now</source>
        <translation>Escribir la publicación ahora</translation>
    </message>
    <message>
        <source>Release file</source>
        <translation>Archivo publicado</translation>
    </message>
    <message>
        <source>File type:</source>
        <translation>Tipo de archivo:</translation>
    </message>
    <message>
        <source>CSV separator:</source>
        <translation>Separador CSV:</translation>
    </message>
    <message>
        <source>CSV decimal mark:</source>
        <translation>Separador decimal CSV:</translation>
    </message>
    <message>
        <source>Save as:</source>
        <translation>Guardar como:</translation>
    </message>
    <message>
        <source>The release has {rows} rows and {columns} columns: {names}. Rows are shuffled; identifiers and untagged columns are left out.</source>
        <translation>La publicación tiene {rows} filas y {columns} columnas: {names}. Las filas se barajan; los identificadores y las columnas sin rol quedan fuera.</translation>
    </message>
    <message>
        <source>Choose where to save the release.</source>
        <translation>Elija dónde guardar la publicación.</translation>
    </message>
    <message>
        <source>&amp;Replace…</source>
        <translation>&amp;Reemplazar…</translation>
    </message>
    <message>
        <source>&amp;Replace the existing file</source>
        <translation>&amp;Reemplazar el archivo existente</translation>
    </message>
    <message>
        <source>Save the release</source>
        <translation>Guardar la publicación</translation>
    </message>
    <message>
        <source>With a decimal comma, choose &apos;;&apos; or tab as the separator.</source>
        <translation>Con coma decimal, elija &apos;;&apos; o el tabulador como separador.</translation>
    </message>
    <message>
        <source>Writing {name}…</source>
        <translation>Escribiendo {name}…</translation>
    </message>
    <message>
        <source>Writing {name}</source>
        <translation>Escribiendo {name}</translation>
    </message>
    <message>
        <source>Replace a file?</source>
        <translation>¿Reemplazar un archivo?</translation>
    </message>
    <message>
        <source>Replace it anyway?</source>
        <translation>¿Reemplazarlo de todos modos?</translation>
    </message>
    <message>
        <source>Written:</source>
        <translation>Escrito:</translation>
    </message>
    <message>
        <source>Open the folder</source>
        <translation>Abrir la carpeta</translation>
    </message>
    <message>
        <source>The seed {seed} is not in the published files; it is in the report {report} (for the review, not for publication) and in the project when you save it.</source>
        <translation>La semilla {seed} no está en los archivos publicados; está en el informe {report} (para la revisión, no para publicar) y en el proyecto cuando lo guarde.</translation>
    </message>
    <message>
        <source>The seed {seed} is not in the published files; save the project to keep it with the review record.</source>
        <translation>La semilla {seed} no está en los archivos publicados; guarde el proyecto para conservarla con el expediente de revisión.</translation>
    </message>
    <message>
        <source>Nothing was written.</source>
        <translation>No se ha escrito nada.</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportar</translation>
    </message>
    <message>
        <source>Export cancelled; nothing was written.</source>
        <translation>Exportación cancelada; no se ha escrito nada.</translation>
    </message>
</context>
<context>
    <name>FigureView</name>
    <message>
        <source>Show the data as a table</source>
        <translation>Mostrar los datos como tabla</translation>
    </message>
    <message>
        <source>Data of the plot</source>
        <translation>Datos del gráfico</translation>
    </message>
    <message>
        <source>Data of the plot: {title}</source>
        <translation>Datos del gráfico: {title}</translation>
    </message>
    <message>
        <source>Show the plot</source>
        <translation>Mostrar el gráfico</translation>
    </message>
</context>
<context>
    <name>GuideWindow</name>
    <message>
        <source>tclose user guide</source>
        <extracomment>the section to keep at the top while the pictures are fitted to the window (until the user scrolls)</extracomment>
        <translation>Guía del usuario de tclose</translation>
    </message>
</context>
<context>
    <name>HelpButton</name>
    <message>
        <source>Open the user guide at this step (F1)</source>
        <translation>Abrir la guía del usuario en este paso (F1)</translation>
    </message>
    <message>
        <source>Help for this step</source>
        <translation>Ayuda sobre este paso</translation>
    </message>
</context>
<context>
    <name>ImportPage</name>
    <message>
        <source>1. Import</source>
        <extracomment>what the reader takes for each choice (None: detect) widest a column of the preview starts (pixels); the user can widen it</extracomment>
        <translation>1. Importar</translation>
    </message>
    <message>
        <source>&amp;Open file…</source>
        <translation>&amp;Abrir archivo…</translation>
    </message>
    <message>
        <source>Choose a CSV or Excel file to anonymize (Ctrl+O)</source>
        <translation>Elija un archivo CSV o Excel para anonimizar (Ctrl+O)</translation>
    </message>
    <message>
        <source>Open the &amp;sample</source>
        <translation>Abrir el &amp;ejemplo</translation>
    </message>
    <message>
        <source>Open a small made-up survey (400 people) to try tclose without your own data</source>
        <translation>Abrir una pequeña encuesta inventada (400 personas) para probar tclose sin sus propios datos</translation>
    </message>
    <message>
        <source>Recently opened files; press Enter or double-click to open one</source>
        <translation>Archivos abiertos recientemente; pulse Intro o haga doble clic para abrir uno</translation>
    </message>
    <message>
        <source>The worksheet of the workbook to read</source>
        <translation>La hoja del libro que se va a leer</translation>
    </message>
    <message>
        <source>The character between values in a text file</source>
        <translation>El carácter entre los valores de un archivo de texto</translation>
    </message>
    <message>
        <source>How the text file&apos;s characters are stored</source>
        <translation>Cómo se almacenan los caracteres del archivo de texto</translation>
    </message>
    <message>
        <source>The decimal mark of numbers in a text file, or of numbers stored as text in a workbook (3.549,40)</source>
        <translation>El separador decimal de los números de un archivo de texto, o de los números guardados como texto en un libro (3.549,40)</translation>
    </message>
    <message>
        <source>The row that holds the column names (1 = first row); rows above it are titles</source>
        <translation>La fila con los nombres de las columnas (1 = primera fila); las filas de encima son títulos</translation>
    </message>
    <message>
        <source>&amp;Read again</source>
        <translation>&amp;Volver a leer</translation>
    </message>
    <message>
        <source>Read the file again with the options chosen here</source>
        <translation>Leer de nuevo el archivo con las opciones elegidas aquí</translation>
    </message>
    <message>
        <source>No file open yet; Next is enabled once a table has been read.</source>
        <translation>Aún no hay ningún archivo abierto; Siguiente se activa cuando se ha leído una tabla.</translation>
    </message>
    <message>
        <source>Open the spreadsheet that holds one row per person (CSV, Excel, OpenDocument, Parquet, SPSS, Stata). You can also drop a file on this window.</source>
        <translation>Abra la hoja de cálculo que tiene una fila por persona (CSV, Excel, OpenDocument, Parquet, SPSS, Stata). También puede soltar un archivo sobre esta ventana.</translation>
    </message>
    <message>
        <source>Rows of the file</source>
        <translation>Filas del archivo</translation>
    </message>
    <message>
        <source>All rows can be scrolled; only the visible ones are formatted.</source>
        <translation>Puede desplazarse por todas las filas; solo se da formato a las visibles.</translation>
    </message>
    <message>
        <source>Recent files</source>
        <translation>Archivos recientes</translation>
    </message>
    <message>
        <source>How the file is read</source>
        <translation>Cómo se lee el archivo</translation>
    </message>
    <message>
        <source>Sheet:</source>
        <translation>Hoja:</translation>
    </message>
    <message>
        <source>Separator:</source>
        <translation>Separador:</translation>
    </message>
    <message>
        <source>Encoding:</source>
        <translation>Codificación:</translation>
    </message>
    <message>
        <source>Decimal mark:</source>
        <translation>Separador decimal:</translation>
    </message>
    <message>
        <source>Header row:</source>
        <translation>Fila de encabezado:</translation>
    </message>
    <message>
        <source>Drop a CSV or Excel file here, click &lt;b&gt;Open file…&lt;/b&gt;,&lt;br&gt;or try tclose on the bundled sample with &lt;b&gt;Open the sample&lt;/b&gt;.</source>
        <translation>Suelte aquí un archivo CSV o Excel, pulse &lt;b&gt;Abrir archivo…&lt;/b&gt;,&lt;br&gt;o pruebe tclose con el ejemplo incluido mediante &lt;b&gt;Abrir el ejemplo&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>Tables</source>
        <translation>Tablas</translation>
    </message>
    <message>
        <source>All files</source>
        <translation>Todos los archivos</translation>
    </message>
    <message>
        <source>Open a table</source>
        <translation>Abrir una tabla</translation>
    </message>
    <message>
        <source>Reading {name}…</source>
        <translation>Leyendo {name}…</translation>
    </message>
    <message>
        <source>Reading {name}</source>
        <translation>Leyendo {name}</translation>
    </message>
    <message>
        <source>Reading was cancelled.</source>
        <translation>Se ha cancelado la lectura.</translation>
    </message>
    <message>
        <source>The file could not be read: {error}</source>
        <translation>No se ha podido leer el archivo: {error}</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importar</translation>
    </message>
    <message>
        <source>{setting} (detected)</source>
        <translation>{setting} (por detección automática)</translation>
    </message>
    <message>
        <source>format {format}</source>
        <translation>formato {format}</translation>
    </message>
    <message>
        <source>sheet “{sheet}”</source>
        <translation>hoja «{sheet}»</translation>
    </message>
    <message>
        <source>separator {separator}</source>
        <translation>separador {separator}</translation>
    </message>
    <message>
        <source>encoding {encoding}</source>
        <translation>codificación {encoding}</translation>
    </message>
    <message>
        <source>decimal mark {mark}</source>
        <translation>separador decimal {mark}</translation>
    </message>
    <message>
        <source>header on row {row}</source>
        <translation>encabezado en la fila {row}</translation>
    </message>
    <message>
        <source>{rows} rows × {columns} columns</source>
        <translation>{rows} filas × {columns} columnas</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>(ninguno todavía)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>tclose {version} — publish microdata safely</source>
        <translation>tclose {version}: publicar microdatos con seguridad</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>&amp;Abrir…</translation>
    </message>
    <message>
        <source>Open a table to anonymize (Ctrl+O)</source>
        <translation>Abrir una tabla para anonimizar (Ctrl+O)</translation>
    </message>
    <message>
        <source>Open the &amp;sample</source>
        <translation>Abrir el &amp;ejemplo</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Abrir &amp;reciente</translation>
    </message>
    <message>
        <source>&amp;Save project…</source>
        <translation>&amp;Guardar proyecto…</translation>
    </message>
    <message>
        <source>Save the file, tags and parameters so the release can be redone (tclose run)</source>
        <translation>Guardar el archivo, los roles y los parámetros para poder rehacer la publicación (tclose run)</translation>
    </message>
    <message>
        <source>Open &amp;project…</source>
        <translation>Abrir &amp;proyecto…</translation>
    </message>
    <message>
        <source>Open a saved project and its data file</source>
        <translation>Abrir un proyecto guardado y su archivo de datos</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Herramientas</translation>
    </message>
    <message>
        <source>Privacy–utility &amp;sweep…</source>
        <translation>&amp;Barrido privacidad–utilidad…</translation>
    </message>
    <message>
        <source>Try a grid of privacy levels and k, compare the information lost, pick a point</source>
        <translation>Probar una cuadrícula de niveles de privacidad y de k, comparar la información perdida y elegir un punto</translation>
    </message>
    <message>
        <source>S&amp;ettings…</source>
        <translation>&amp;Preferencias…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>A&amp;yuda</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>&amp;Guía del usuario</translation>
    </message>
    <message>
        <source>The user guide, at the step you are on (F1)</source>
        <translation>La guía del usuario, en el paso en que se encuentra (F1)</translation>
    </message>
    <message>
        <source>Open the &amp;log folder</source>
        <translation>Abrir la carpeta del &amp;registro</translation>
    </message>
    <message>
        <source>&amp;About tclose</source>
        <translation>A&amp;cerca de tclose</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>Guía del usuario</translation>
    </message>
    <message>
        <source>Save project</source>
        <translation>Guardar proyecto</translation>
    </message>
    <message>
        <source>Nothing to save yet: {problem}</source>
        <translation>Todavía no hay nada que guardar: {problem}</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>Abrir proyecto</translation>
    </message>
    <message>
        <source>Reading the project&apos;s data</source>
        <translation>Leyendo los datos del proyecto</translation>
    </message>
    <message>
        <source>Privacy–utility sweep</source>
        <translation>Barrido privacidad–utilidad</translation>
    </message>
    <message>
        <source>First: {problem}</source>
        <translation>Primero: {problem}</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>(ninguno todavía)</translation>
    </message>
    <message>
        <source>About tclose</source>
        <translation>Acerca de tclose</translation>
    </message>
    <message>
        <source>Publish microdata with k-anonymity, t-closeness and ε-differential privacy for the confidential columns; every release is checked by an independent verifier before it can be written.</source>
        <translation>Publique microdatos con k-anonimato, t-proximidad y ε-privacidad diferencial para las columnas confidenciales; cada publicación la comprueba un verificador independiente antes de poder escribirse.</translation>
    </message>
    <message>
        <source>Log file: {path}</source>
        <translation>Archivo de registro: {path}</translation>
    </message>
</context>
<context>
    <name>NumberField</name>
    <message>
        <source>{label} must be more than 0 % and less than 100 %.</source>
        <extracomment>the user set a new value (None: the ``none_text`` choice) the text typed stopped or started being a value of the field (&quot;&quot; when it is one) the declared field (engine.params.Field): label, help, unit, range, step</extracomment>
        <translation>{label} debe ser mayor que 0 % y menor que 100 %.</translation>
    </message>
</context>
<context>
    <name>Plots</name>
    <message>
        <source>{column}: {b} buckets and one for missing values</source>
        <extracomment>at most this many values of a category are listed in a before/after table a numeric before/after table has this many ranges of equal width</extracomment>
        <translation>{column}: {b} tramos y uno para los valores ausentes</translation>
    </message>
    <message>
        <source>{column}: {b} buckets</source>
        <translation>{column}: {b} tramos</translation>
    </message>
    <message>
        <source>The values of {column} are grouped into {b} buckets of {smallest} to {largest} records.</source>
        <translation>Los valores de {column} se agrupan en {b} tramos de {smallest} a {largest} registros.</translation>
    </message>
    <message>
        <source>The missing values form a bucket of their own, with {count} records.</source>
        <translation>Los valores ausentes forman un tramo propio, con {count} registros.</translation>
    </message>
    <message>
        <source>The largest bucket is {label}, with {count} records ({share}).</source>
        <translation>El tramo más grande es {label}, con {count} registros ({share}).</translation>
    </message>
    <message>
        <source>bucket</source>
        <translation>tramo</translation>
    </message>
    <message>
        <source>records</source>
        <translation>registros</translation>
    </message>
    <message>
        <source>share</source>
        <translation>proporción</translation>
    </message>
    <message>
        <source>{n} classes, smallest {low}, largest {high}</source>
        <translation>{n} clases, la menor de {low}, la mayor de {high}</translation>
    </message>
    <message>
        <source>How many classes hold each number of records: {n} classes of {low} to {high} records; k asked is {k}.</source>
        <translation>Cuántas clases tienen cada número de registros: {n} clases de {low} a {high} registros; el k pedido es {k}.</translation>
    </message>
    <message>
        <source>The commonest size is {size} records ({count} classes).</source>
        <translation>El tamaño más frecuente es {size} registros ({count} clases).</translation>
    </message>
    <message>
        <source>records per class</source>
        <translation>registros por clase</translation>
    </message>
    <message>
        <source>classes</source>
        <translation>clases</translation>
    </message>
    <message>
        <source>For each of {classes} classes and {b} buckets: the bucket&apos;s share in the class divided by its share in the whole file. The ratios lie between {lowest} and {highest}; t allows {low} to {high}.</source>
        <translation>Para cada una de {classes} clases y {b} tramos: la proporción del tramo en la clase dividida por su proporción en todo el archivo. Los cocientes van de {lowest} a {highest}; t permite de {low} a {high}.</translation>
    </message>
    <message>
        <source>Every ratio is inside the band.</source>
        <translation>Todos los cocientes están dentro de la banda.</translation>
    </message>
    <message>
        <source>{cells} ratios are outside the band.</source>
        <translation>{cells} cocientes están fuera de la banda.</translation>
    </message>
    <message>
        <source>Bucket share in each class ÷ share in the whole file</source>
        <translation>Proporción del tramo en cada clase ÷ proporción en todo el archivo</translation>
    </message>
    <message>
        <source>class</source>
        <translation>clase</translation>
    </message>
    <message>
        <source>{column}: before and after</source>
        <translation>{column}: antes y después</translation>
    </message>
    <message>
        <source>before</source>
        <translation>antes</translation>
    </message>
    <message>
        <source>after</source>
        <translation>después</translation>
    </message>
    <message>
        <source>{column} before and after the release: mean {mean_before} → {mean_after}, median {median_before} → {median_after}.</source>
        <translation>{column} antes y después de la publicación: media {mean_before} → {mean_after}, mediana {median_before} → {median_after}.</translation>
    </message>
    <message>
        <source>range</source>
        <translation>intervalo</translation>
    </message>
    <message>
        <source>{column} before and after the release: {before} distinct values before, {after} after; the commonest after is {top} ({count} records).</source>
        <translation>{column} antes y después de la publicación: {before} valores distintos antes, {after} después; el más frecuente después es {top} ({count} registros).</translation>
    </message>
    <message>
        <source>The table lists the first {n} of {total} values.</source>
        <translation>La tabla muestra los primeros {n} de {total} valores.</translation>
    </message>
    <message>
        <source>value</source>
        <translation>valor</translation>
    </message>
    <message>
        <source>QI information loss (SSE/SST)</source>
        <extracomment>the sweep&apos;s measures by name (engine.report.sweep), as the plot&apos;s axis names them</extracomment>
        <translation>pérdida de información de los CI (SSE/SST)</translation>
    </message>
    <message>
        <source>confidential distortion (SSE/SST)</source>
        <translation>distorsión de los valores confidenciales (SSE/SST)</translation>
    </message>
    <message>
        <source>relative error of the total</source>
        <translation>error relativo del total</translation>
    </message>
    <message>
        <source>relative error of the group means</source>
        <translation>error relativo de las medias por grupo</translation>
    </message>
    <message>
        <source>relative error of the regression coefficients</source>
        <translation>error relativo de los coeficientes de regresión</translation>
    </message>
    <message>
        <source>{measure} against {symbol}, a curve for each k ({ks}): {points} points, {bad} of them infeasible.</source>
        <translation>{measure} según {symbol}, una curva por cada k ({ks}): {points} puntos, {bad} de ellos no factibles.</translation>
    </message>
    <message>
        <source>The least loss, {loss}, is at {symbol} = {value} and k = {k}.</source>
        <translation>La menor pérdida, {loss}, está en {symbol} = {value} y k = {k}.</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>sí</translation>
    </message>
    <message>
        <source>no</source>
        <translation>no</translation>
    </message>
    <message>
        <source>Information loss against {symbol}</source>
        <translation>Pérdida de información según {symbol}</translation>
    </message>
    <message>
        <source>feasible</source>
        <translation>factible</translation>
    </message>
</context>
<context>
    <name>PreviewPage</name>
    <message>
        <source>4. Preview</source>
        <translation>4. Vista previa</translation>
    </message>
    <message>
        <source>The release is computed on your computer and checked by an independent verifier. Change k, the buckets or the release format and run again until the balance suits you.</source>
        <translation>La publicación se calcula en su equipo y la comprueba un verificador independiente. Cambie k, los tramos o el formato de publicación y vuelva a calcular hasta que el equilibrio le convenga.</translation>
    </message>
    <message>
        <source>&amp;Run again</source>
        <translation>&amp;Volver a calcular</translation>
    </message>
    <message>
        <source>Compute the release again with these settings</source>
        <translation>Calcular de nuevo la publicación con estos ajustes</translation>
    </message>
    <message>
        <source>How the quasi-identifiers are released</source>
        <translation>Cómo se publican los cuasi-identificadores</translation>
    </message>
    <message>
        <source>How the confidential values are released</source>
        <translation>Cómo se publican los valores confidenciales</translation>
    </message>
    <message>
        <source>&amp;k:</source>
        <translation>&amp;k:</translation>
    </message>
    <message>
        <source>&amp;Buckets:</source>
        <translation>&amp;Tramos:</translation>
    </message>
    <message>
        <source>&amp;Quasi-identifiers as:</source>
        <translation>&amp;Cuasi-identificadores como:</translation>
    </message>
    <message>
        <source>&amp;Confidential as:</source>
        <translation>C&amp;onfidenciales como:</translation>
    </message>
    <message>
        <source>What the release achieves, as measured by the verifier</source>
        <translation>Lo que logra la publicación, según lo mide el verificador</translation>
    </message>
    <message>
        <source>Details: guarantees and their sources</source>
        <translation>Detalles: garantías y sus fuentes</translation>
    </message>
    <message>
        <source>The bucket histogram appears here.</source>
        <translation>Aquí aparece el histograma de los tramos.</translation>
    </message>
    <message>
        <source>The class sizes appear here.</source>
        <translation>Aquí aparecen los tamaños de las clases.</translation>
    </message>
    <message>
        <source>The closeness heat map appears here.</source>
        <translation>Aquí aparece el mapa de calor de la proximidad.</translation>
    </message>
    <message>
        <source>Confidential buckets</source>
        <translation>Tramos confidenciales</translation>
    </message>
    <message>
        <source>The confidential values with the bucket boundaries</source>
        <translation>Los valores confidenciales con los límites de los tramos</translation>
    </message>
    <message>
        <source>Class sizes</source>
        <translation>Tamaños de las clases</translation>
    </message>
    <message>
        <source>How many records each group (equivalence class) holds</source>
        <translation>Cuántos registros contiene cada grupo (clase de equivalencia)</translation>
    </message>
    <message>
        <source>Closeness</source>
        <translation>Proximidad</translation>
    </message>
    <message>
        <source>Per class and bucket: its share in the class divided by its share overall</source>
        <translation>Por clase y tramo: su proporción en la clase dividida por su proporción en el total</translation>
    </message>
    <message>
        <source>The quasi-identifier to compare before and after recoding</source>
        <translation>El cuasi-identificador que se compara antes y después de la recodificación</translation>
    </message>
    <message>
        <source>A quasi-identifier before and after.</source>
        <translation>Un cuasi-identificador antes y después.</translation>
    </message>
    <message>
        <source>Before / after</source>
        <translation>Antes / después</translation>
    </message>
    <message>
        <source>A quasi-identifier&apos;s distribution before and after recoding</source>
        <translation>La distribución de un cuasi-identificador antes y después de la recodificación</translation>
    </message>
    <message>
        <source>Original (for the review, not for publication)</source>
        <translation>Original (para la revisión, no para publicar)</translation>
    </message>
    <message>
        <source>Disclosure risk (original → release; for the review)</source>
        <translation>Riesgo de divulgación (original → publicación; para la revisión)</translation>
    </message>
    <message>
        <source>What an analysis keeps (original → release; for the review, not for publication)</source>
        <translation>Lo que conserva un análisis (original → publicación; para la revisión, no para publicar)</translation>
    </message>
    <message>
        <source>Released</source>
        <translation>Publicado</translation>
    </message>
    <message>
        <source>What the release achieves</source>
        <translation>Lo que logra la publicación</translation>
    </message>
    <message>
        <source>Guarantees and their sources</source>
        <translation>Garantías y sus fuentes</translation>
    </message>
    <message>
        <source>Plots and rows of the release</source>
        <translation>Gráficos y filas de la publicación</translation>
    </message>
    <message>
        <source>Quasi-identifier:</source>
        <translation>Cuasi-identificador:</translation>
    </message>
    <message>
        <source>Original rows</source>
        <translation>Filas originales</translation>
    </message>
    <message>
        <source>Released rows</source>
        <translation>Filas publicadas</translation>
    </message>
    <message>
        <source>Original and released rows</source>
        <translation>Filas originales y publicadas</translation>
    </message>
    <message>
        <source>The first {n} released rows (shuffled, as written), each beside the record it was made from</source>
        <translation>Las primeras {n} filas publicadas (barajadas, tal como se escriben), cada una junto al registro del que procede</translation>
    </message>
    <message>
        <source>Confidential: the values themselves, with random noise.</source>
        <translation>Confidencial: los propios valores, con ruido aleatorio.</translation>
    </message>
    <message>
        <source>The settings changed: press Run again to see the release.</source>
        <translation>Los ajustes han cambiado: pulse Volver a calcular para ver la publicación.</translation>
    </message>
    <message>
        <source>Computing the release…</source>
        <translation>Calculando la publicación…</translation>
    </message>
    <message>
        <source>What the release achieves (k, t, ε, information loss) appears here once it is computed.</source>
        <translation>Lo que logra la publicación (k, t, ε, pérdida de información) aparece aquí una vez calculada.</translation>
    </message>
    <message>
        <source>Anonymizing</source>
        <translation>Anonimizando</translation>
    </message>
    <message>
        <source>{message} Try: {tips}</source>
        <translation>{message} Pruebe: {tips}</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>El cálculo ha fallado.</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Vista previa</translation>
    </message>
    <message>
        <source>Cancelled; press Run again to compute the release.</source>
        <translation>Cancelado; pulse Volver a calcular para obtener la publicación.</translation>
    </message>
    <message>
        <source>Out of date: a new release is being computed…</source>
        <translation>Desactualizado: se está calculando una nueva publicación…</translation>
    </message>
    <message>
        <source>Out of date: these results are of other settings. Press Run again.</source>
        <translation>Desactualizado: estos resultados corresponden a otros ajustes. Pulse Volver a calcular.</translation>
    </message>
    <message>
        <source>Confidential values</source>
        <translation>Valores confidenciales</translation>
    </message>
    <message>
        <source>ε = {epsilon}, from t (Proposition 3)</source>
        <translation>ε = {epsilon}, a partir de t (Proposición 3)</translation>
    </message>
    <message>
        <source>stochastically {t}-close (Proposition 1, smallest class)</source>
        <translation>estocásticamente {t}-próxima (Proposición 1, clase más pequeña)</translation>
    </message>
    <message>
        <source>Please note</source>
        <translation>Tenga en cuenta</translation>
    </message>
    <message>
        <source>{times} × the values&apos; own variation</source>
        <translation>{times} × la variación propia de los valores</translation>
    </message>
    <message>
        <source>SSE/SST above 100 %: the released values lie further from the true ones than the true ones lie from their mean</source>
        <translation>SSE/SST por encima del 100 %: los valores publicados se alejan más de los verdaderos que estos de su media</translation>
    </message>
    <message>
        <source>{column}: the plan expected the noise to move each value by about ±{expected}; the release differs from the true values by {measured} on average, less, because {share} of the released values were pushed past the public bounds {low} to {high} and set to the bound, which cuts their noise short.</source>
        <translation>{column}: el plan preveía que el ruido moviera cada valor unos ±{expected}; la publicación difiere de los valores verdaderos en {measured} de media, menos, porque el ruido llevó el {share} de los valores publicados más allá de los límites públicos {low} a {high} y se fijaron en el límite, lo que acorta su ruido.</translation>
    </message>
    <message>
        <source>{column}: the plan expected the noise to move each value by about ±{expected}; the release differs from the true values by {measured} on average, more, because each value was first replaced by the mean of its group of {k} before the noise was added.</source>
        <translation>{column}: el plan preveía que el ruido moviera cada valor unos ±{expected}; la publicación difiere de los valores verdaderos en {measured} de media, más, porque cada valor se sustituyó primero por la media de su grupo de {k} antes de añadir el ruido.</translation>
    </message>
    <message>
        <source>Buckets</source>
        <translation>Tramos</translation>
    </message>
    <message>
        <source>Compared with the original data below: for the review, not for publication (the published files hold none of it).</source>
        <translation>Lo que sigue se compara con los datos originales: para la revisión, no para publicar (los archivos publicados no contienen nada de ello).</translation>
    </message>
    <message>
        <source>Why the groups are larger than k:</source>
        <translation>Por qué los grupos son mayores que k:</translation>
    </message>
    <message>
        <source>records</source>
        <translation>registros</translation>
    </message>
    <message>
        <source>classes</source>
        <translation>clases</translation>
    </message>
    <message>
        <source>groups sharing their released QI values</source>
        <translation>grupos que comparten los valores publicados de sus cuasi-identificadores</translation>
    </message>
    <message>
        <source>k achieved</source>
        <translation>k alcanzado</translation>
    </message>
    <message>
        <source>asked {k}</source>
        <translation>pedido {k}</translation>
    </message>
    <message>
        <source>t achieved</source>
        <translation>t alcanzado</translation>
    </message>
    <message>
        <source>asked {t}</source>
        <translation>pedido {t}</translation>
    </message>
    <message>
        <source>ε achieved</source>
        <translation>ε alcanzado</translation>
    </message>
    <message>
        <source>QI information loss</source>
        <translation>pérdida de información en cuasi-identificadores</translation>
    </message>
    <message>
        <source>confidential loss</source>
        <translation>pérdida en confidenciales</translation>
    </message>
    <message>
        <source>{column}: values changed</source>
        <translation>{column}: valores cambiados</translation>
    </message>
    <message>
        <source>randomized response</source>
        <translation>respuesta aleatorizada</translation>
    </message>
    <message>
        <source>time</source>
        <translation>tiempo</translation>
    </message>
    <message>
        <source>{name}: {value}</source>
        <translation>{name}: {value}</translation>
    </message>
</context>
<context>
    <name>PrivacyPage</name>
    <message>
        <source>on</source>
        <translation>activado</translation>
    </message>
    <message>
        <source>off</source>
        <translation>desactivado</translation>
    </message>
    <message>
        <source>3. Privacy level</source>
        <translation>3. Nivel de privacidad</translation>
    </message>
    <message>
        <source>Choose how close each group&apos;s confidential values must stay to the whole file&apos;s (t, or ε of differential privacy) and the smallest group size k.</source>
        <translation>Elija cuánto deben parecerse los valores confidenciales de cada grupo a los de todo el archivo (t, o ε de privacidad diferencial) y el tamaño mínimo de grupo k.</translation>
    </message>
    <message>
        <source>&amp;t (t-closeness)</source>
        <extracomment>plans received for the session&apos;s data, by parameters why the engine could not plan some parameters (a column it cannot use, …) plans the run off the GUI thread the parameters of the plan asked for last the privacy level as t and as ε (two views of the session&apos;s one level) every widget bound to its value of the session</extracomment>
        <translation>&amp;t (t-proximidad)</translation>
    </message>
    <message>
        <source>&amp;ε (differential privacy)</source>
        <translation>&amp;ε (privacidad diferencial)</translation>
    </message>
    <message>
        <source>Average in groups of k before adding noise (less noise)</source>
        <translation>Promediar en grupos de k antes de añadir ruido (menos ruido)</translation>
    </message>
    <message>
        <source>e.g. income=0:250000</source>
        <translation>p. ej. ingresos=0:250000</translation>
    </message>
    <message>
        <source>Estimate missing bounds privately, using</source>
        <translation>Estimar en privado los límites que falten, usando</translation>
    </message>
    <message>
        <source>Number of &amp;buckets:</source>
        <translation>Número de tra&amp;mos:</translation>
    </message>
    <message>
        <source>Details: guarantees, assumptions and sources</source>
        <translation>Detalles: garantías, supuestos y fuentes</translation>
    </message>
    <message>
        <source>Noise in proportion to each value (log scale)</source>
        <translation>Ruido proporcional a cada valor (escala logarítmica)</translation>
    </message>
    <message>
        <source>Leave out the records whose confidential value is missing</source>
        <extracomment>the radio button and the note of each mechanism, by name</extracomment>
        <translation>Dejar fuera los registros a los que les falta el valor confidencial</translation>
    </message>
    <message>
        <source>empty = fresh randomness (recommended)</source>
        <translation>vacío = aleatoriedad nueva (recomendado)</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>no indicado</translation>
    </message>
    <message>
        <source>public-use file (anyone)</source>
        <translation>archivo de uso público (cualquiera)</translation>
    </message>
    <message>
        <source>scientific-use file (registered researchers)</source>
        <translation>archivo de uso científico (investigadores registrados)</translation>
    </message>
    <message>
        <source>licensed file (named users, an agreement)</source>
        <translation>archivo con licencia (usuarios designados, un acuerdo)</translation>
    </message>
    <message>
        <source>data enclave (a controlled environment)</source>
        <translation>enclave de datos (un entorno controlado)</translation>
    </message>
    <message>
        <source>e.g. a neighbour who knows age, sex and region</source>
        <translation>p. ej. un vecino que conoce la edad, el sexo y la región</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parámetros</translation>
    </message>
    <message>
        <source>Privacy level:</source>
        <translation>Nivel de privacidad:</translation>
    </message>
    <message>
        <source>Smallest group size &amp;k:</source>
        <translation>Tamaño mínimo de grupo &amp;k:</translation>
    </message>
    <message>
        <source>Mechanism:</source>
        <translation>Mecanismo:</translation>
    </message>
    <message>
        <source>Public bounds:</source>
        <translation>Límites públicos:</translation>
    </message>
    <message>
        <source>of ε</source>
        <translation>de ε</translation>
    </message>
    <message>
        <source>Public categories:</source>
        <translation>Categorías públicas:</translation>
    </message>
    <message>
        <source>Random seed:</source>
        <translation>Semilla aleatoria:</translation>
    </message>
    <message>
        <source>Release type:</source>
        <translation>Tipo de publicación:</translation>
    </message>
    <message>
        <source>Intruder scenario:</source>
        <translation>Escenario de intrusión:</translation>
    </message>
    <message>
        <source>What this file allows</source>
        <translation>Lo que permite este archivo</translation>
    </message>
    <message>
        <source>What k, t and ε mean</source>
        <translation>Qué significan k, t y ε</translation>
    </message>
    <message>
        <source>&lt;b&gt;k&lt;/b&gt;: records are grouped so that each released combination of quasi-identifier values (columns an intruder may already know, such as age or region) is shared by at least k people; nobody can be singled out by them.&lt;br&gt;&lt;br&gt;&lt;b&gt;t&lt;/b&gt;: the confidential values are grouped into buckets; inside every group each bucket&apos;s share stays between 1/t and t times its share in the whole file, so learning someone&apos;s group tells little about their confidential value.&lt;br&gt;&lt;br&gt;&lt;b&gt;ε&lt;/b&gt;: the same promise stated as differential privacy; smaller is more private.</source>
        <translation>&lt;b&gt;k&lt;/b&gt;: los registros se agrupan de modo que cada combinación publicada de valores de los cuasi-identificadores (columnas que un intruso puede conocer ya, como la edad o la región) la comparten al menos k personas; nadie puede ser singularizado por ellos.&lt;br&gt;&lt;br&gt;&lt;b&gt;t&lt;/b&gt;: los valores confidenciales se agrupan en tramos; dentro de cada grupo, la proporción de cada tramo se mantiene entre 1/t y t veces su proporción en todo el archivo, así que saber el grupo de alguien dice poco de su valor confidencial.&lt;br&gt;&lt;br&gt;&lt;b&gt;ε&lt;/b&gt;: la misma promesa expresada como privacidad diferencial; cuanto menor, más privado.</translation>
    </message>
    <message>
        <source>What the chosen parameters promise, in plain words</source>
        <translation>Lo que prometen los parámetros elegidos, en palabras sencillas</translation>
    </message>
    <message>
        <source>Guarantees, assumptions and sources</source>
        <translation>Garantías, supuestos y fuentes</translation>
    </message>
    <message>
        <source>What the chosen parameters guarantee, under which assumption, and the paper that proves it</source>
        <translation>Lo que garantizan los parámetros elegidos, con qué supuesto, y el artículo que lo demuestra</translation>
    </message>
    <message>
        <source>In plain words</source>
        <translation>En palabras sencillas</translation>
    </message>
    <message>
        <source>Not changed: {reason}</source>
        <translation>No se ha cambiado: {reason}</translation>
    </message>
    <message>
        <source>The plan could not be made; see the log.</source>
        <translation>No se ha podido hacer el plan; consulte el registro.</translation>
    </message>
    <message>
        <source>Planning the release</source>
        <translation>Planificando la publicación</translation>
    </message>
    <message>
        <source>Checking what this file allows…</source>
        <translation>Comprobando lo que permite este archivo…</translation>
    </message>
    <message>
        <source>Next is disabled: {problem}</source>
        <translation>Siguiente está desactivado: {problem}</translation>
    </message>
    <message>
        <source>Nearest settings that work:</source>
        <translation>Ajustes más cercanos que funcionan:</translation>
    </message>
    <message>
        <source>Only one class: {reason}</source>
        <translation>Una sola clase: {reason}</translation>
    </message>
    <message>
        <source>Why the groups will be larger than k: {reason}</source>
        <translation>Por qué los grupos serán mayores que k: {reason}</translation>
    </message>
    <message>
        <source>t = {t} (ε = {epsilon}) and k = {k} can be met.</source>
        <translation>Se pueden cumplir t = {t} (ε = {epsilon}) y k = {k}.</translation>
    </message>
    <message>
        <source>Every group will hold at least k = {k} records.</source>
        <translation>Cada grupo tendrá al menos k = {k} registros.</translation>
    </message>
    <message>
        <source>The confidential values fall into {b} buckets (the smallest, {label}, holds {count} records).</source>
        <translation>Los valores confidenciales se reparten en {b} tramos (el más pequeño, {label}, tiene {count} registros).</translation>
    </message>
    <message>
        <source>{column}: randomized response; each value is kept with probability {keep}, otherwise replaced at random.</source>
        <translation>{column}: respuesta aleatorizada; cada valor se conserva con probabilidad {keep} y, si no, se sustituye al azar.</translation>
    </message>
    <message>
        <source>{column}: Laplace noise for ε = {epsilon}, about ±{error} per value on average.</source>
        <translation>{column}: ruido de Laplace para ε = {epsilon}, de unos ±{error} por valor en promedio.</translation>
    </message>
    <message>
        <source>{column}: Laplace noise for ε = {epsilon} on the log scale; half of the values stay within a factor {factor} of their true value.</source>
        <translation>{column}: ruido de Laplace para ε = {epsilon} en escala logarítmica; la mitad de los valores quedan dentro de un factor {factor} de su valor real.</translation>
    </message>
    <message>
        <source>{column}: Laplace noise for ε = {epsilon}; the bounds are estimated privately when the release is made, so the error is known only then.</source>
        <translation>{column}: ruido de Laplace para ε = {epsilon}; los límites se estiman de forma privada al hacer la publicación, así que el error solo se conoce entonces.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguno</translation>
    </message>
    <message>
        <source>Every group will hold records of at least {k} of the {n} households; released alike for all members of a household: {level}.</source>
        <translation>Cada grupo tendrá registros de al menos {k} de los {n} hogares; se publican iguales para todos los miembros de un hogar: {level}.</translation>
    </message>
    <message>
        <source>Risk of the original records: {expected} expected re-identifications (largest risk {largest})</source>
        <translation>Riesgo de los registros originales: {expected} reidentificaciones esperadas (riesgo máximo {largest})</translation>
    </message>
    <message>
        <source>, household risk {risk} on average</source>
        <translation>, riesgo de hogar {risk} en promedio</translation>
    </message>
    <message>
        <source>; after the release each record&apos;s risk is at most 1/k = {r}.</source>
        <translation>; tras la publicación, el riesgo de cada registro es como mucho 1/k = {r}.</translation>
    </message>
    <message>
        <source>Use these settings: {changes}</source>
        <translation>Usar estos ajustes: {changes}</translation>
    </message>
    <message>
        <source>{field} from {old} to {new}</source>
        <translation>{field} de {old} a {new}</translation>
    </message>
    <message>
        <source>Changed: {changes}.</source>
        <translation>Cambiado: {changes}.</translation>
    </message>
    <message>
        <source>The settings already were these.</source>
        <translation>Los ajustes ya eran esos.</translation>
    </message>
</context>
<context>
    <name>Progress</name>
    <message>
        <source>Writing the report</source>
        <translation>Escribiendo el informe</translation>
    </message>
    <message>
        <source>Drawing the previews</source>
        <translation>Dibujando las vistas previas</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Hecho</translation>
    </message>
    <message>
        <source>Looking at the columns</source>
        <extracomment>(type guesses, role suggestions) of every column</extracomment>
        <translation>Examinando las columnas</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>Leído</translation>
    </message>
</context>
<context>
    <name>ProgressPanel</name>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Stop the running task; nothing is written (Esc)</source>
        <translation>Detener la tarea en curso; no se escribe nada (Esc)</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Cancelando…</translation>
    </message>
</context>
<context>
    <name>Project</name>
    <message>
        <source>tclose project (*.json)</source>
        <translation>Proyecto de tclose (*.json)</translation>
    </message>
    <message>
        <source>Open a data file before saving a project.</source>
        <translation>Abra un archivo de datos antes de guardar un proyecto.</translation>
    </message>
    <message>
        <source>Save project</source>
        <translation>Guardar proyecto</translation>
    </message>
    <message>
        <source>Replace it anyway?</source>
        <translation>¿Reemplazarlo de todos modos?</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>Abrir proyecto</translation>
    </message>
    <message>
        <source>Input file changed</source>
        <translation>El archivo de entrada ha cambiado</translation>
    </message>
    <message>
        <source>Use the changed file anyway?</source>
        <translation>¿Usar de todos modos el archivo modificado?</translation>
    </message>
    <message>
        <source>Input file not found</source>
        <translation>No se encuentra el archivo de entrada</translation>
    </message>
    <message>
        <source>Locate the file now?</source>
        <translation>¿Buscar el archivo ahora?</translation>
    </message>
    <message>
        <source>Locate {name}</source>
        <translation>Buscar {name}</translation>
    </message>
</context>
<context>
    <name>RecodingBox</name>
    <message>
        <source>e.g. 15:25:45:65</source>
        <extracomment>a recoding changed (the tag page shows the column&apos;s type again)</extracomment>
        <translation>p. ej. 15:25:45:65</translation>
    </message>
    <message>
        <source>e.g. 90</source>
        <translation>p. ej. 90</translation>
    </message>
    <message>
        <source>e.g. 0</source>
        <translation>p. ej. 0</translation>
    </message>
    <message>
        <source>Choose a &amp;hierarchy file…</source>
        <translation>Elegir un archivo de &amp;jerarquía…</translation>
    </message>
    <message>
        <source>A CSV file or a workbook whose columns are the levels, the finest first (commune, district, province), one row per finest value</source>
        <translation>Un archivo CSV o un libro cuyas columnas son los niveles, el más fino primero (municipio, distrito, provincia), una fila por valor del nivel más fino</translation>
    </message>
    <message>
        <source>Remove the hierarchy</source>
        <translation>Quitar la jerarquía</translation>
    </message>
    <message>
        <source>Bands (cut points):</source>
        <translation>Tramos (puntos de corte):</translation>
    </message>
    <message>
        <source>Top code:</source>
        <translation>Código superior:</translation>
    </message>
    <message>
        <source>Bottom code:</source>
        <translation>Código inferior:</translation>
    </message>
    <message>
        <source>Hierarchy:</source>
        <translation>Jerarquía:</translation>
    </message>
    <message>
        <source>Recoding of {column} before the grouping</source>
        <translation>Recodificación de {column} antes de agrupar</translation>
    </message>
    <message>
        <source>Recoding before the grouping (select a column)</source>
        <translation>Recodificación antes de agrupar (seleccione una columna)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguna</translation>
    </message>
    <message>
        <source>{levels} ({n} values at the finest level)</source>
        <translation>{levels} ({n} valores en el nivel más fino)</translation>
    </message>
    <message>
        <source>Choose a hierarchy file</source>
        <translation>Elegir un archivo de jerarquía</translation>
    </message>
    <message>
        <source>Tables ({patterns})</source>
        <translation>Tablas ({patterns})</translation>
    </message>
</context>
<context>
    <name>Roles</name>
    <message>
        <source>not released</source>
        <extracomment>share of distinct values above which a column may be an identifier fewest values for that share to mean anything</extracomment>
        <translation>no publicada</translation>
    </message>
    <message>
        <source>identifier</source>
        <translation>identificador</translation>
    </message>
    <message>
        <source>quasi-identifier</source>
        <translation>cuasi-identificador</translation>
    </message>
    <message>
        <source>confidential</source>
        <translation>confidencial</translation>
    </message>
    <message>
        <source>other (released unchanged)</source>
        <translation>otra (publicada sin cambios)</translation>
    </message>
    <message>
        <source>household</source>
        <translation>hogar</translation>
    </message>
    <message>
        <source>sampling weight</source>
        <translation>peso muestral</translation>
    </message>
    <message>
        <source>Left out of the release (the safe default for a column you do not need).</source>
        <translation>Se deja fuera de la publicación (la opción segura para una columna que no necesita).</translation>
    </message>
    <message>
        <source>Names a person directly (name, ID number, e-mail); never released.</source>
        <translation>Identifica directamente a una persona (nombre, número de identificación, correo electrónico); nunca se publica.</translation>
    </message>
    <message>
        <source>Quasi-identifier: not an identifier by itself, but an intruder may know it and link it to a person (age, sex, region). Released only after grouping records into classes of at least k.</source>
        <translation>Cuasi-identificador: no identifica por sí solo, pero un intruso puede conocerlo y vincularlo a una persona (edad, sexo, región). Solo se publica tras agrupar los registros en clases de al menos k.</translation>
    </message>
    <message>
        <source>The sensitive value to protect (income, diagnosis); released only in protected form.</source>
        <translation>El valor sensible que hay que proteger (ingresos, diagnóstico); solo se publica en forma protegida.</translation>
    </message>
    <message>
        <source>Released exactly as it is; only for columns that cannot identify anyone.</source>
        <translation>Se publica tal cual; solo para columnas que no pueden identificar a nadie.</translation>
    </message>
    <message>
        <source>The household a person belongs to: every class holds at least k households, household-level values are released alike for all members, the id is re-coded.</source>
        <translation>El hogar al que pertenece una persona: cada clase reúne al menos k hogares, los valores del hogar se publican iguales para todos sus miembros y el identificador se recodifica.</translation>
    </message>
    <message>
        <source>How many people of the population the record stands for (a number &gt; 0): used for the risk and weighted totals; released unchanged.</source>
        <translation>Cuántas personas de la población representa el registro (un número &gt; 0): se usa para el riesgo y los totales ponderados; se publica sin cambios.</translation>
    </message>
    <message>
        <source>{distinct} of {n} values are distinct ({share}) and the name is an identifier&apos;s: this is probably an identifier.</source>
        <extracomment>the suggested role (None: no suggestion) values that are not missing, and how many of them are distinct near-unique whole numbers or texts: an identifier, whatever its name the name is one identifiers go by (id, code, name, e-mail …) what the engine&apos;s identifier rule reads (a quasi-identifier that is an identifier in disguise is refused: :func:`engine.identifiers.identifier_reason`)</extracomment>
        <translation>{distinct} de {n} valores son distintos ({share}) y el nombre es de identificador: probablemente es un identificador.</translation>
    </message>
</context>
<context>
    <name>RolesModel</name>
    <message>
        <source>Column</source>
        <translation>Columna</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rol</translation>
    </message>
    <message>
        <source>Missing-value codes</source>
        <translation>Códigos de valor perdido</translation>
    </message>
    <message>
        <source>Distinct</source>
        <translation>Distintos</translation>
    </message>
    <message>
        <source>Empty</source>
        <translation>Vacías</translation>
    </message>
    <message>
        <source>Why / note</source>
        <translation>Motivo / nota</translation>
    </message>
    <message>
        <source>The column&apos;s name in the file</source>
        <translation>El nombre de la columna en el archivo</translation>
    </message>
    <message>
        <source>How values compare: numeric, ordinal (ordered categories), nominal (categories), date</source>
        <translation>Cómo se comparan los valores: numérico, ordinal (categorías ordenadas), nominal (categorías), fecha</translation>
    </message>
    <message>
        <source>What the column is for; only quasi-identifiers, confidential and &apos;other&apos; are released</source>
        <translation>Para qué sirve la columna; solo se publican los cuasi-identificadores, las confidenciales y las «otras»</translation>
    </message>
    <message>
        <source>Values that mean &apos;missing&apos; in this column, separated by commas (e.g. -1, 99, N/A)</source>
        <translation>Valores que significan «perdido» en esta columna, separados por comas (p. ej. -1, 99, N/A)</translation>
    </message>
    <message>
        <source>How many different values the column has</source>
        <translation>Cuántos valores distintos tiene la columna</translation>
    </message>
    <message>
        <source>The share of empty cells, once the missing-value codes are declared</source>
        <translation>La proporción de celdas vacías, una vez declarados los códigos de valor perdido</translation>
    </message>
    <message>
        <source>Why a role or type was suggested</source>
        <translation>Por qué se ha sugerido un rol o un tipo</translation>
    </message>
    <message>
        <source>numeric</source>
        <translation>numérico</translation>
    </message>
    <message>
        <source>ordinal</source>
        <translation>ordinal</translation>
    </message>
    <message>
        <source>nominal</source>
        <translation>nominal</translation>
    </message>
    <message>
        <source>date</source>
        <translation>fecha</translation>
    </message>
    <message>
        <source>numbers; compared by size</source>
        <translation>números; se comparan por su magnitud</translation>
    </message>
    <message>
        <source>ordered categories (e.g. education level); compared by rank</source>
        <translation>categorías ordenadas (p. ej. nivel de estudios); se comparan por su rango</translation>
    </message>
    <message>
        <source>unordered categories (e.g. region); equal or not</source>
        <translation>categorías sin orden (p. ej. región); iguales o no</translation>
    </message>
    <message>
        <source>dates; compared as numbers of days</source>
        <translation>fechas; se comparan como número de días</translation>
    </message>
    <message>
        <source>Looks like an identifier: as a quasi-identifier it singles people out.</source>
        <extracomment>names listed in the summary line per role before &quot;and N more&quot; rows the Type/Role/… columns are sized by (a file may have 10,000 columns) records the household-level QIs are looked for in on this page (fast on any file) the column names in order, for the session&apos;s columns dict ``_of`` (a new file brings a new dict)</extracomment>
        <translation>Parece un identificador: como cuasi-identificador señala a las personas.</translation>
    </message>
    <message>
        <source>{empty} of {rows} cells are empty ({share})</source>
        <translation>{empty} de {rows} celdas están vacías ({share})</translation>
    </message>
    <message>
        <source>{type}: {help} (guessed: {note})</source>
        <translation>{type}: {help} (deducido: {note})</translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <source>Write bounds as COLUMN=LOW:HIGH, e.g. income=0:250000 ({part}).</source>
        <extracomment>the parameters a new session starts from (k-anonymity with t-closeness, t = 2, k = 5) the type guessed from the values (after the missing codes) what the values and the name suggest about the role where one column&apos;s bounds end and the next begin: a semicolon, a new line, or a comma that comes before the next &quot;COLUMN=&quot; (a comma between digits is a decimal comma)</extracomment>
        <translation>Escriba los límites como COLUMNA=MÍN:MÁX, p. ej. ingresos=0:250000 ({part}).</translation>
    </message>
    <message>
        <source>Open a file first.</source>
        <extracomment>the table as read (missing codes not yet applied) the last preview (its parameters are ``release.params``) files written by the last export called after every change of :attr:`params`, with the session (the pages&apos; bindings: a widget shows what the session holds whichever page or dialog changed it)</extracomment>
        <translation>Abra primero un archivo.</translation>
    </message>
    <message>
        <source>Tag at least one column as quasi-identifier.</source>
        <translation>Asigne el rol de cuasi-identificador al menos a una columna.</translation>
    </message>
    <message>
        <source>Tag at least one column as confidential.</source>
        <translation>Asigne el rol de confidencial al menos a una columna.</translation>
    </message>
    <message>
        <source>The project names columns the file lacks: {names}.</source>
        <translation>El proyecto menciona columnas que el archivo no tiene: {names}.</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>Recent files</source>
        <extracomment>the version of the stored settings&apos; layout (1: the settings declared here) where the version is stored the key in QSettings what it is, for people (marked for translation in the context &quot;Settings&quot;) the value as stored → the value (ValueError when it is not one) the languages the app ships: the engine&apos;s one declared list</extracomment>
        <translation>Archivos recientes</translation>
    </message>
    <message>
        <source>The files opened last, newest first (File › Open recent).</source>
        <translation>Los últimos archivos abiertos, el más reciente primero (Archivo › Abrir reciente).</translation>
    </message>
    <message>
        <source>Last folder</source>
        <translation>Última carpeta</translation>
    </message>
    <message>
        <source>Where File › Open starts: the folder of the last file.</source>
        <translation>Dónde empieza Archivo › Abrir: la carpeta del último archivo.</translation>
    </message>
    <message>
        <source>Export folder</source>
        <translation>Carpeta de exportación</translation>
    </message>
    <message>
        <source>Where a release is saved by default: the last export&apos;s.</source>
        <translation>Dónde se guarda una publicación por omisión: donde se guardó la última.</translation>
    </message>
    <message>
        <source>Window size and place</source>
        <translation>Tamaño y posición de la ventana</translation>
    </message>
    <message>
        <source>The main window as it was left.</source>
        <translation>La ventana principal como se dejó.</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <source>The language of the app (empty: the system&apos;s).</source>
        <translation>El idioma de la aplicación (vacío: el del sistema).</translation>
    </message>
    <message>
        <source>Colours</source>
        <translation>Colores</translation>
    </message>
    <message>
        <source>Light or dark (empty: as the system).</source>
        <translation>Claro u oscuro (vacío: como el sistema).</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Preferencias</translation>
    </message>
    <message>
        <source>Automatic (the system&apos;s language)</source>
        <translation>Automático (el idioma del sistema)</translation>
    </message>
    <message>
        <source>The language of the app; messages from the engine stay in English</source>
        <translation>El idioma de la aplicación; los mensajes del motor se quedan en inglés</translation>
    </message>
    <message>
        <source>Automatic (as the system)</source>
        <translation>Automático (como el sistema)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Claro</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Oscuro</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Idioma:</translation>
    </message>
    <message>
        <source>&amp;Colours:</source>
        <translation>&amp;Colores:</translation>
    </message>
    <message>
        <source>Changes take effect the next time tclose starts.</source>
        <translation>Los cambios se aplican la próxima vez que se inicie tclose.</translation>
    </message>
</context>
<context>
    <name>SweepDialog</name>
    <message>
        <source>feasible</source>
        <translation>factible</translation>
    </message>
    <message>
        <source>QI loss</source>
        <translation>pérdida en cuasi-identificadores</translation>
    </message>
    <message>
        <source>confidential loss</source>
        <translation>pérdida en confidenciales</translation>
    </message>
    <message>
        <source>achieved t</source>
        <translation>t alcanzado</translation>
    </message>
    <message>
        <source>classes</source>
        <translation>clases</translation>
    </message>
    <message>
        <source>note</source>
        <translation>nota</translation>
    </message>
    <message>
        <source>{what}: type numbers separated by commas, e.g. 2, 3, 5.</source>
        <translation>{what}: escriba números separados por comas, p. ej. 2, 3, 5.</translation>
    </message>
    <message>
        <source>{what}: type at least one number.</source>
        <translation>{what}: escriba al menos un número.</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>sí</translation>
    </message>
    <message>
        <source>no</source>
        <translation>no</translation>
    </message>
    <message>
        <source>Privacy–utility sweep</source>
        <extracomment>(&quot;t&quot; or &quot;epsilon&quot;, value, k) of the point the user chose a point of the running sweep is done (its row; emitted from the worker thread)</extracomment>
        <translation>Barrido privacidad–utilidad</translation>
    </message>
    <message>
        <source>The {symbol} values to try, separated by commas</source>
        <extracomment>the rows of the running sweep done so far, and how many points it has</extracomment>
        <translation>Los valores de {symbol} que se van a probar, separados por comas</translation>
    </message>
    <message>
        <source>The k values to try (one curve each), separated by commas</source>
        <translation>Los valores de k que se van a probar (una curva cada uno), separados por comas</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>Ejecutar el barrido</translation>
    </message>
    <message>
        <source>{symbol} values:</source>
        <translation>Valores de {symbol}:</translation>
    </message>
    <message>
        <source>k values:</source>
        <translation>Valores de k:</translation>
    </message>
    <message>
        <source>Every point is a full anonymization run, so a large grid on a large file takes a while. Lower curves lose less information; points further left protect more. Click a point in the plot or a row in the table, then “Use this point”.</source>
        <translation>Cada punto es una anonimización completa, así que una cuadrícula grande sobre un archivo grande tarda un rato. Las curvas más bajas pierden menos información; los puntos más a la izquierda protegen más. Haga clic en un punto del gráfico o en una fila de la tabla y luego en «Usar este punto».</translation>
    </message>
    <message>
        <source>Run the sweep to see the curves.</source>
        <translation>Ejecute el barrido para ver las curvas.</translation>
    </message>
    <message>
        <source>Points of the sweep</source>
        <translation>Puntos del barrido</translation>
    </message>
    <message>
        <source>Use this point</source>
        <translation>Usar este punto</translation>
    </message>
    <message>
        <source>{symbol} values</source>
        <translation>valores de {symbol}</translation>
    </message>
    <message>
        <source>k values</source>
        <translation>valores de k</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Barrido</translation>
    </message>
    <message>
        <source>{done} of {points} points done…</source>
        <translation>{done} de {points} puntos hechos…</translation>
    </message>
    <message>
        <source>Sweep cancelled after {done} of {points} points; those are shown.</source>
        <translation>Barrido cancelado tras {done} de {points} puntos; se muestran esos.</translation>
    </message>
    <message>
        <source>Sweep cancelled.</source>
        <translation>Barrido cancelado.</translation>
    </message>
    <message>
        <source>{points} points, {bad} infeasible (crosses on the axis).</source>
        <translation>{points} puntos, {bad} no factibles (cruces sobre el eje).</translation>
    </message>
    <message>
        <source>{points} points, all feasible.</source>
        <translation>{points} puntos, todos factibles.</translation>
    </message>
    <message>
        <source>a point with more privacy loses less</source>
        <translation>un punto con más privacidad pierde menos</translation>
    </message>
    <message>
        <source>Chosen: {symbol} = {value}, k = {k} (loss {loss}).</source>
        <translation>Elegido: {symbol} = {value}, k = {k} (pérdida {loss}).</translation>
    </message>
    <message>
        <source>Infeasible: {message}</source>
        <translation>No factible: {message}</translation>
    </message>
</context>
<context>
    <name>TagPage</name>
    <message>
        <source>2. Tag the columns</source>
        <translation>2. Asignar roles a las columnas</translation>
    </message>
    <message>
        <source>Give every column a role. A quasi-identifier is a column an intruder may already know about a person (age, sex, region); a confidential column is the sensitive value to protect. Columns left &apos;not released&apos; are dropped.</source>
        <translation>Asigne un rol a cada columna. Un cuasi-identificador es una columna que un intruso puede conocer ya sobre una persona (edad, sexo, región); una columna confidencial es el valor sensible que hay que proteger. Las columnas marcadas como «no publicada» se descartan.</translation>
    </message>
    <message>
        <source>Columns and their roles</source>
        <extracomment>why a code or name typed was not taken</extracomment>
        <translation>Columnas y sus funciones</translation>
    </message>
    <message>
        <source>Click a Type, Role or Missing-value cell (or press F2) to change it; the arrow keys move between cells, Tab leaves the table.</source>
        <translation>Haga clic en una celda de Tipo, Rol o Códigos de valor perdido (o pulse F2) para cambiarla; las flechas se mueven entre celdas y el tabulador sale de la tabla.</translation>
    </message>
    <message>
        <source>e.g. -1, 99, N/A, unknown</source>
        <translation>p. ej. -1, 99, N/A, desconocido</translation>
    </message>
    <message>
        <source>Codes that mean &apos;missing&apos; in every column, separated by commas; cells holding them are treated as missing values</source>
        <translation>Códigos que significan «perdido» en todas las columnas, separados por comas; las celdas que los contienen se tratan como valores perdidos</translation>
    </message>
    <message>
        <source>e.g. dwelling, district</source>
        <translation>p. ej. vivienda, distrito</translation>
    </message>
    <message>
        <source>Household-level quasi-identifiers</source>
        <translation>Cuasi-identificadores del hogar</translation>
    </message>
    <message>
        <source>Quasi-identifiers to release alike for every member of a household, besides those found constant within every household; separated by commas</source>
        <translation>Cuasi-identificadores que se publican iguales para todos los miembros de un hogar, además de los que ya son constantes dentro de cada hogar; separados por comas</translation>
    </message>
    <message>
        <source>Missing-value codes (all columns):</source>
        <translation>Códigos de valor perdido (todas las columnas):</translation>
    </message>
    <message>
        <source>Also household-level:</source>
        <translation>También del hogar:</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguno</translation>
    </message>
    <message>
        <source>{households} households. &lt;b&gt;Household-level&lt;/b&gt; (the same for every member, released alike for all of them): {level}.</source>
        <translation>{households} hogares. &lt;b&gt;Del hogar&lt;/b&gt; (iguales para todos los miembros, se publican iguales para todos): {level}.</translation>
    </message>
    <message>
        <source>{name} ({share} of households)</source>
        <translation>{name} ({share} de los hogares)</translation>
    </message>
    <message>
        <source>Nearly household-level: {names}; name them under &apos;Also household-level&apos; to release them alike.</source>
        <translation>Casi del hogar: {names}; indíquelos en «También del hogar» para publicarlos iguales.</translation>
    </message>
    <message>
        <source>and {n} more</source>
        <translation>y {n} más</translation>
    </message>
    <message>
        <source>Next is disabled: {problem}</source>
        <translation>Siguiente está desactivado: {problem}</translation>
    </message>
    <message>
        <source>quasi-identifiers</source>
        <translation>cuasi-identificadores</translation>
    </message>
    <message>
        <source>confidential</source>
        <translation>confidenciales</translation>
    </message>
    <message>
        <source>identifiers (dropped)</source>
        <translation>identificadores (descartados)</translation>
    </message>
    <message>
        <source>released unchanged</source>
        <translation>publicadas sin cambios</translation>
    </message>
    <message>
        <source>household (released re-coded)</source>
        <translation>hogar (publicado recodificado)</translation>
    </message>
    <message>
        <source>sampling weight</source>
        <translation>peso muestral</translation>
    </message>
    <message>
        <source>No column tagged yet.</source>
        <translation>Todavía no hay ninguna columna con rol.</translation>
    </message>
    <message>
        <source>{names}: nearly every value is different, as in an identifier. As a quasi-identifier such a column singles people out and the groups must blur it almost entirely; if it names a person, tag it identifier.</source>
        <translation>{names}: casi todos los valores son distintos, como en un identificador. Como cuasi-identificador, una columna así singulariza a las personas y los grupos tienen que difuminarla casi por completo; si identifica a una persona, asígnele el rol de identificador.</translation>
    </message>
</context>
<context>
    <name>TcloseWizard</name>
    <message>
        <source>&amp;Close</source>
        <extracomment>the user guide&apos;s section of each page (the slug of its heading in docs/user-guide.md) files opened as a tclose project rather than as data</extracomment>
        <translation>&amp;Cerrar</translation>
    </message>
    <message>
        <source>Go to the next step (Alt+N)</source>
        <translation>Ir al paso siguiente (Alt+N)</translation>
    </message>
    <message>
        <source>Go back one step (Alt+B)</source>
        <translation>Volver al paso anterior (Alt+B)</translation>
    </message>
</context>
<context>
    <name>formats</name>
    <message>
        <source>CSV text</source>
        <extracomment>the function that reads it (&quot;module:function&quot;; module doc) the function that writes a release in it (&quot;module:function&quot;; &quot;&quot; = not written) the bytes a file of this format starts with (its content decides before its name) when a file&apos;s first bytes match several formats, the highest priority reads it the first bytes (what the format was recognised by) what the import found and guessed, filled in by the reader bytes the reader may use instead of the measured free memory (None: measure) the staged file (renamed onto the target when every output is written) the suffix the release is named with (&quot;.sav&quot; or &quot;.zsav&quot; for one writer) the published metadata (``RunSummary.public_dict()``), with the software and time the release&apos;s labels (:class:`engine.io.codebook.Codebook`) separator, decimal mark and byte-order mark of a text release a new scratch file beside the target (a workbook spools its sheets there)</extracomment>
        <translation>Texto CSV</translation>
    </message>
    <message>
        <source>Tab-separated text</source>
        <translation>Texto separado por tabulaciones</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Texto</translation>
    </message>
    <message>
        <source>Excel workbook</source>
        <translation>Libro de Excel</translation>
    </message>
    <message>
        <source>Excel workbook with macros</source>
        <translation>Libro de Excel con macros</translation>
    </message>
    <message>
        <source>Excel 97–2003 workbook</source>
        <translation>Libro de Excel 97–2003</translation>
    </message>
    <message>
        <source>OpenDocument spreadsheet</source>
        <translation>Hoja de cálculo OpenDocument</translation>
    </message>
    <message>
        <source>Parquet</source>
        <translation>Parquet</translation>
    </message>
    <message>
        <source>SPSS data</source>
        <translation>Datos de SPSS</translation>
    </message>
    <message>
        <source>SPSS compressed data</source>
        <translation>Datos SPSS comprimidos</translation>
    </message>
    <message>
        <source>Stata data</source>
        <translation>Datos de Stata</translation>
    </message>
</context>
<context>
    <name>mechanisms</name>
    <message>
        <source>Bu&amp;ckets: t-closeness by grouping</source>
        <translation>Tramos: t-&amp;proximidad por agrupación</translation>
    </message>
    <message>
        <source>exact guarantee, checked on the released file (default)</source>
        <translation>garantía exacta, comprobada en el archivo publicado (predeterminado)</translation>
    </message>
    <message>
        <source>The confidential values are grouped into buckets and each group keeps every bucket close to its share in the whole file (t-closeness)</source>
        <translation>Los valores confidenciales se agrupan en tramos y cada grupo mantiene cada tramo cerca de su proporción en todo el archivo (t-proximidad)</translation>
    </message>
    <message>
        <source>N&amp;oise: ε-differential privacy</source>
        <extracomment>the smallest ε of a noise mechanism: the noise is drawn on an integer lattice whose scale grows as 1/ε, and below this the released values are pure noise millions of times wider than the bounds anyway</extracomment>
        <translation>&amp;Ruido: ε-privacidad diferencial</translation>
    </message>
    <message>
        <source>Laplace on numbers, randomized response on categories</source>
        <translation>Laplace en los números, respuesta aleatorizada en las categorías</translation>
    </message>
    <message>
        <source>Each confidential value is released with random noise (ε-differential privacy): Laplace noise on numbers, randomized response on categories</source>
        <translation>Cada valor confidencial se publica con ruido aleatorio (ε-privacidad diferencial): ruido de Laplace en los números, respuesta aleatorizada en las categorías</translation>
    </message>
</context>
<context>
    <name>params</name>
    <message>
        <source>quasi-identifiers</source>
        <extracomment>the name of a registered mechanism (:data:`engine.mechanisms.MECHANISMS`) who may obtain the release (the SDC guidance&apos;s release types, IHSN SDC practice guide) the longest intruder scenario (a short text; the DDI and the About sheet quote it) the largest ε accepted: t = exp(ε/2) and e^ε must stay finite numbers (e^700 ≈ 1e304) the largest size of a number tclose computes with (public bounds, protected values): sums of squares over millions of records must stay finite (1e150² · 1e9 ≪ 1.8e308) the largest seed (numpy&apos;s generators take any integer in [0, 2^64)) a flag&apos;s text can say it: a value of the form the flag reads (a number, a word, a list of names, COLUMN=VALUE pairs); False for a value only a project file or the app can hold (a number where a list is wanted, a blank text a flag reads as &quot;none&quot;) the allowed values in English, marked with ``N_`` (:attr:`allowed` translates it) whether the ends themselves are allowed what the texts are, in English marked with ``N_`` (translated in messages) column names must be non-empty and unique; codes may be anything values one column&apos;s ``value`` refuses (its invalid values, declared beside it) what separates the categories of one column in a text: ``cold|flu|HIV`` the field&apos;s name for people (&quot;smallest group size k&quot;) one or two sentences: what it does and which way is more private the unit of the value as shown (&quot;records&quot;, &quot;%&quot;); &quot;&quot; when it has none the symbol the field is known by in formulas (&quot;k&quot;, &quot;t&quot;, &quot;ε&quot;); &quot;&quot; when none decimals a value is offered with when the app computes it (t from ε) or steps it; a value as given is always kept and shown exactly, never rounded to these how much one step (arrow key, spin button) changes the value the app shows value × scale (100: a share shown in percent) the help groups of the command line&apos;s release flags, in the order ``--help`` lists them (the command line&apos;s words only: marked for the engine&apos;s catalogues, not the app&apos;s) the help group it is listed in (a key of :data:`FLAG_GROUPS`); &quot;&quot; = no flag of its own the flag, when it is not ``--`` + the field&apos;s name with dashes the placeholder of its value in ``--help`` (&quot;COL,…&quot;); &quot;&quot; for an on/off flag how the flag&apos;s text becomes the value: &quot;value&quot; (one value, read by :meth:`ReleaseParams.parse`), &quot;columns&quot; (names separated by commas), &quot;codes&quot; (codes separated by commas, kept as written), &quot;switch&quot; (on when given), &quot;off&quot; (a True field the flag turns off), &quot;pairs&quot; (COLUMN=VALUE, the flag repeated per column), &quot;bounds&quot; (COLUMN=LO:HI per column, or private[=SHARE], which sets ``private_bounds``), &quot;categories&quot; (COLUMN=CAT|CAT|… per column, :func:`split_categories`) or &quot;files&quot; (COLUMN=FILE per column: a table read from FILE, a CSV or a workbook) the words each COLUMN=VALUE of a &quot;pairs&quot; flag takes ``tclose sweep`` takes a list of values, one axis of its grid: an example of one the flag must be given flags of the same name here exclude each other (t and ε) the field is given with another field&apos;s flag (its name) why the field has no flag (project files and the app only) the numeric range, from the constraint (None: unbounded on that side) whether ``low`` and ``high`` themselves are allowed None is a value of the field (&quot;auto&quot; or &quot;none&quot;) None means &quot;the engine chooses&quot; (shown as &quot;automatic&quot;) ``other`` columns released unchanged (only these; every unnamed column is dropped) released columns (quasi-identifiers, kept ones) that the identifier rule (:mod:`engine.identifiers`) takes for identifiers and that are released all the same, because the user says they are not; the run&apos;s review record names them the household id of every person (any type): every class then holds records of at least k households, household-level QIs are released alike for all members, and the id is released re-coded (``household_output``) the sampling weight of every record (numeric, &gt; 0): used for the risk estimates and the weighted bucket means, released as ``weight_output`` says QIs declared household-level (released alike for every member of a household) on top of those found constant within every household the household id in the release: &quot;recode&quot; (a fresh random numbering per release, so that members can be grouped and no id links back) or &quot;none&quot; (left out) the weight in the release: &quot;class&quot; (every record carries its class&apos;s mean weight, so the weight never splits a class and each class&apos;s sum of weights is kept), &quot;keep&quot; (unchanged: a key like any QI, since weights reveal the sampling stratum) or &quot;none&quot; (left out) type overrides; columns not named here have their type inferred category order of ordinal columns (lowest first); inferred when absent missing-value codes for every column (compared as text and, where numeric, as numbers) missing-value codes for single columns, added to ``missing`` records with a missing confidential value: &quot;bucket&quot; releases them in a bucket of their own (released empty), which every class must then hold; &quot;drop&quot; leaves them out of the release (the plan, the summary and the report state how many) smallest class size number of confidential buckets b; None (&quot;auto&quot;) = searched with the class size for the least combined loss (:func:`engine.release.plan.plan`, ``utility_weight``) how the search of b weighs the confidential loss against the QI loss: it minimises w · confidential SSE/SST + (1 − w) · QI SSE/SST (0 = only the QIs count, 1 = only the confidential values; 0.5: both alike, which gave the analyses the least error) several confidential columns form one joint bucket (KBS 2015 §4); False = per column public bounds (lo, hi) of numeric confidential columns, known without the data: the noise mechanism clamps to them; the buckets mechanism ends its outer labels at them noise mechanism: the share of each column&apos;s ε spent on estimating the bounds of a numeric confidential column that has no public bounds (DP quantiles); None = every such column needs public bounds public categories of nominal (or ordinal, lowest first) confidential columns, known without the data: the noise mechanism&apos;s randomized response draws from them, and a value outside them is released as one of them drawn at random; the categories seen in the data are never used (one person&apos;s rare category would show in the release) noise mechanism: aggregate confidential values in insensitive groups of k first noise mechanism: redraw until the release is also t-close on the buckets noise mechanism, numeric columns: &quot;log&quot; adds the noise to log(1 + value) and releases the result back on the column&apos;s scale, so that the error grows with the value (for positive, skewed columns such as incomes); the bounds must then be ≥ 0 a bucket&apos;s released value: the mean of the whole bucket (&quot;mean&quot;, which keeps totals; the median where one or two records dominate the bucket&apos;s sum), its &quot;median&quot;, or its &quot;label&quot; (the interval or category set); &quot;representative&quot; is read as &quot;median&quot; None = fresh OS entropy (not reproducible); a number makes the run reproducible who may obtain the release: &quot;public&quot; (a public-use file), &quot;scientific&quot; (registered researchers), &quot;licensed&quot; (named users under an agreement) or &quot;enclave&quot; (used only in a controlled environment); None = not stated; the plan compares k with the guidance for a stated type the intruder scenario the release is protected against, in the agency&apos;s words (what an intruder is assumed to know and do); published with the release per nominal quasi-identifier, its classification from the finest level to the coarsest (a table, header first: engine.recoding.Hierarchy); classes are formed with its distance and release their members&apos; lowest common level per numeric quasi-identifier, public cut points: its values are released as bands per numeric column, a public top code: larger values are replaced by it per numeric column, a public bottom code: smaller values are replaced by it one declared constraint per field (checked in declaration order) one :class:`FieldInfo` per field, in the order of :attr:`CONSTRAINTS`</extracomment>
        <translation>cuasi-identificadores</translation>
    </message>
    <message>
        <source>Columns an intruder may know and link to a person (age, sex, region); released only after grouping the records into classes of at least k.</source>
        <translation>Columnas que un intruso puede conocer y vincular a una persona (edad, sexo, región); se publican solo tras agrupar los registros en clases de al menos k.</translation>
    </message>
    <message>
        <source>confidential columns</source>
        <translation>columnas confidenciales</translation>
    </message>
    <message>
        <source>The sensitive values to protect (income, diagnosis); released only in protected form.</source>
        <translation>Los valores sensibles que hay que proteger (ingresos, diagnóstico); se publican solo en forma protegida.</translation>
    </message>
    <message>
        <source>identifiers</source>
        <translation>identificadores</translation>
    </message>
    <message>
        <source>Columns that name a person directly (name, ID number); never released.</source>
        <translation>Columnas que nombran directamente a una persona (nombre, número de documento); nunca se publican.</translation>
    </message>
    <message>
        <source>columns released unchanged</source>
        <translation>columnas publicadas sin cambios</translation>
    </message>
    <message>
        <source>Columns released exactly as they are; a column named nowhere is left out.</source>
        <translation>Columnas que se publican tal como son; una columna que no se nombra en ninguna parte queda fuera.</translation>
    </message>
    <message>
        <source>columns released although they look like identifiers</source>
        <translation>columnas publicadas aunque parezcan identificadores</translation>
    </message>
    <message>
        <source>Quasi-identifiers or kept columns that hold nearly one value per record (or per household) and would be refused as identifiers in disguise; released all the same because you know they are not identifiers. The review record names them.</source>
        <translation>Cuasi-identificadores o columnas conservadas que tienen casi un valor por registro (o por hogar) y se rechazarían como identificadores encubiertos; se publican de todos modos porque usted sabe que no son identificadores. El registro de revisión las nombra.</translation>
    </message>
    <message>
        <source>household column</source>
        <translation>columna de hogar</translation>
    </message>
    <message>
        <source>The household each person belongs to: every class then holds records of at least k households, and household-level values are released alike for all members.</source>
        <translation>El hogar al que pertenece cada persona: cada clase reúne entonces registros de al menos k hogares, y los valores del hogar se publican iguales para todos sus miembros.</translation>
    </message>
    <message>
        <source>sampling weight column</source>
        <translation>columna de peso muestral</translation>
    </message>
    <message>
        <source>How many people of the population each record stands for (a number above 0): used for the risk estimates and the weighted bucket means.</source>
        <translation>Cuántas personas de la población representa cada registro (un número mayor que 0): se usa para estimar el riesgo y para las medias ponderadas de los tramos.</translation>
    </message>
    <message>
        <source>also household-level</source>
        <translation>también del hogar</translation>
    </message>
    <message>
        <source>Quasi-identifiers to release alike for every member of a household, besides those found constant within every household.</source>
        <translation>Cuasi-identificadores que se publican iguales para todos los miembros de un hogar, además de los que ya son constantes dentro de cada hogar.</translation>
    </message>
    <message>
        <source>household id released as</source>
        <translation>identificador de hogar publicado como</translation>
    </message>
    <message>
        <source>&apos;recode&apos;: a fresh random numbering in every release, so members can be grouped but no id links back; &apos;none&apos;: left out.</source>
        <translation>«recode»: una numeración aleatoria nueva en cada publicación, de modo que los miembros pueden agruparse pero ningún identificador remite al original; «none»: se deja fuera.</translation>
    </message>
    <message>
        <source>weight released as</source>
        <translation>peso publicado como</translation>
    </message>
    <message>
        <source>&apos;class&apos;: every record carries its class&apos;s mean weight (the weight never splits a class; each class&apos;s sum of weights is kept); &apos;keep&apos;: unchanged (weights can reveal the sampling stratum: the run reports k and t with the weight as a key); &apos;none&apos;: left out.</source>
        <translation>&apos;class&apos;: cada registro lleva el peso medio de su clase (el peso nunca divide una clase; se conserva la suma de pesos de cada clase); &apos;keep&apos;: sin cambios (los pesos pueden revelar el estrato de muestreo: la ejecución indica k y t con el peso como clave); &apos;none&apos;: se omite.</translation>
    </message>
    <message>
        <source>column types</source>
        <translation>tipos de columna</translation>
    </message>
    <message>
        <source>The type of a column where it is not the one inferred from its values.</source>
        <translation>El tipo de una columna cuando no es el que se deduce de sus valores.</translation>
    </message>
    <message>
        <source>category orders</source>
        <translation>orden de las categorías</translation>
    </message>
    <message>
        <source>The categories of an ordinal column from the lowest to the highest.</source>
        <translation>Las categorías de una columna ordinal, de la más baja a la más alta.</translation>
    </message>
    <message>
        <source>missing-value codes</source>
        <translation>códigos de valor ausente</translation>
    </message>
    <message>
        <source>Values that stand for a missing answer in every column (-9, N/A).</source>
        <translation>Valores que indican una respuesta ausente en todas las columnas (-9, N/A).</translation>
    </message>
    <message>
        <source>missing-value codes of single columns</source>
        <translation>códigos de valor ausente de columnas concretas</translation>
    </message>
    <message>
        <source>Values that stand for a missing answer in one column only.</source>
        <translation>Valores que indican una respuesta ausente en una sola columna.</translation>
    </message>
    <message>
        <source>records without a confidential value</source>
        <translation>registros sin valor confidencial</translation>
    </message>
    <message>
        <source>&apos;bucket&apos; releases them in a bucket of their own (released empty); &apos;drop&apos; leaves them out of the release.</source>
        <translation>«bucket» los publica en un tramo propio (publicado vacío); «drop» los deja fuera de la publicación.</translation>
    </message>
    <message>
        <source>smallest group size k</source>
        <translation>tamaño mínimo de grupo k</translation>
    </message>
    <message>
        <source>k: every released combination of quasi-identifier values is shared by at least k records, so no one can be singled out by them.</source>
        <translation>k: cada combinación publicada de valores de los cuasi-identificadores la comparten al menos k registros, así que nadie puede ser singularizado por ellos.</translation>
    </message>
    <message>
        <source>records</source>
        <translation>registros</translation>
    </message>
    <message>
        <source>privacy level t</source>
        <translation>nivel de privacidad t</translation>
    </message>
    <message>
        <source>t ≥ 1: inside every group, each confidential bucket&apos;s share may be at most t times (and at least 1/t of) its share in the whole file. Smaller t = more privacy.</source>
        <translation>t ≥ 1: dentro de cada grupo, la proporción de cada tramo confidencial puede ser como mucho t veces (y como mínimo 1/t de) su proporción en todo el archivo. Menor t = más privacidad.</translation>
    </message>
    <message>
        <source>privacy level ε</source>
        <translation>nivel de privacidad ε</translation>
    </message>
    <message>
        <source>ε &gt; 0: the privacy budget of differential privacy; smaller ε = more privacy. With buckets, t = exp(ε/2).</source>
        <translation>ε &gt; 0: el presupuesto de privacidad de la privacidad diferencial; menor ε = más privacidad. Con tramos, t = exp(ε/2).</translation>
    </message>
    <message>
        <source>mechanism</source>
        <translation>mecanismo</translation>
    </message>
    <message>
        <source>&apos;buckets&apos;: t-closeness by grouping the confidential values; &apos;laplace&apos;: ε-differential privacy by random noise.</source>
        <translation>«buckets»: t-proximidad agrupando los valores confidenciales; «laplace»: ε-privacidad diferencial mediante ruido aleatorio.</translation>
    </message>
    <message>
        <source>number of buckets</source>
        <translation>número de tramos</translation>
    </message>
    <message>
        <source>How many buckets the confidential values are grouped into; &apos;automatic&apos; lets the engine choose for t and k. More buckets keep more detail but need larger groups.</source>
        <translation>En cuántos tramos se agrupan los valores confidenciales; «automático» deja que el motor elija según t y k. Más tramos conservan más detalle, pero exigen grupos más grandes.</translation>
    </message>
    <message>
        <source>weight of the confidential loss</source>
        <translation>peso de la pérdida confidencial</translation>
    </message>
    <message>
        <source>How the search of the number of buckets weighs the confidential loss against the quasi-identifiers&apos; loss (0: only the quasi-identifiers count, 1: only the confidential values).</source>
        <translation>Cómo pondera la búsqueda del número de tramos la pérdida confidencial frente a la de los cuasi-identificadores (0: solo cuentan los cuasi-identificadores; 1: solo los valores confidenciales).</translation>
    </message>
    <message>
        <source>confidential columns bucketed together</source>
        <translation>columnas confidenciales agrupadas juntas</translation>
    </message>
    <message>
        <source>Several confidential columns form one joint bucket (the stronger guarantee); off: each column is bucketed on its own.</source>
        <translation>Varias columnas confidenciales forman un tramo conjunto (la garantía más fuerte); desactivado: cada columna se agrupa por separado.</translation>
    </message>
    <message>
        <source>public bounds</source>
        <translation>límites públicos</translation>
    </message>
    <message>
        <source>Public lower and upper limits of each numeric confidential column (COLUMN=LOW:HIGH), known without looking at the data (e.g. from the questionnaire). Noise is calibrated to them and released values are kept within them; the outer buckets end at them. The data&apos;s own minimum and maximum are never used.</source>
        <translation>Límites públicos inferior y superior de cada columna confidencial numérica (COLUMNA=MÍN:MÁX), conocidos sin mirar los datos (p. ej., por el cuestionario). El ruido se calibra con ellos y los valores publicados se mantienen dentro; los tramos extremos terminan en ellos. Nunca se usan el mínimo y el máximo de los propios datos.</translation>
    </message>
    <message>
        <source>share of ε for private bounds</source>
        <translation>parte de ε para los límites privados</translation>
    </message>
    <message>
        <source>For a numeric confidential column without public bounds: estimate its limits from the data with differential privacy, spending this share of its ε (the rest goes into the noise)</source>
        <translation>Para una columna confidencial numérica sin límites públicos: estimar sus límites a partir de los datos con privacidad diferencial, gastando esta parte de su ε (el resto va al ruido)</translation>
    </message>
    <message>
        <source>public categories</source>
        <translation>categorías públicas</translation>
    </message>
    <message>
        <source>Every category a nominal confidential column can take (COLUMN=CAT|CAT|…), known without looking at the data (e.g. the answers of the questionnaire). The noise mechanism&apos;s randomized response draws from them, and a value outside them is released as one of them at random. The categories seen in the data are never used: one person&apos;s rare category would show.</source>
        <translation>Todas las categorías que puede tomar una columna confidencial nominal (COLUMNA=CAT|CAT|…), conocidas sin mirar los datos (p. ej., las respuestas del cuestionario). La respuesta aleatorizada del mecanismo de ruido sortea entre ellas, y un valor fuera de ellas se publica como una de ellas al azar. Nunca se usan las categorías vistas en los datos: la categoría poco frecuente de una persona se notaría.</translation>
    </message>
    <message>
        <source>average in groups of k before adding noise</source>
        <translation>promediar en grupos de k antes de añadir ruido</translation>
    </message>
    <message>
        <source>Insensitive microaggregation: noise of scale Δ/(k·ε) instead of Δ/ε for the same ε</source>
        <translation>Microagregación insensible: ruido de escala Δ/(k·ε) en lugar de Δ/ε para el mismo ε</translation>
    </message>
    <message>
        <source>redraw the noise until t-close at</source>
        <translation>volver a sortear el ruido hasta ser t-próximo con</translation>
    </message>
    <message>
        <source>Draw the noise again until the release is also t-close on the buckets at this t.</source>
        <translation>Sortear de nuevo el ruido hasta que la publicación sea también t-próxima en los tramos con este t.</translation>
    </message>
    <message>
        <source>noise in proportion to each value</source>
        <translation>ruido proporcional a cada valor</translation>
    </message>
    <message>
        <source>The noise is added to log(1 + value) and the result taken back, so small values get small errors and large values large ones. For positive, skewed columns; the public bounds must then be 0 or more. The same ε either way.</source>
        <translation>El ruido se suma a log(1 + valor) y el resultado se devuelve a la escala original, de modo que los valores pequeños reciben errores pequeños y los grandes, errores grandes. Para columnas positivas y asimétricas; los límites públicos deben ser entonces 0 o más. El mismo ε en ambos casos.</translation>
    </message>
    <message>
        <source>quasi-identifiers released as</source>
        <translation>cuasi-identificadores publicados como</translation>
    </message>
    <message>
        <source>&apos;centroid&apos;: one typical value per group; &apos;range&apos;: the range the group spans.</source>
        <translation>«centroid»: un valor típico por grupo; «range»: el intervalo que abarca el grupo.</translation>
    </message>
    <message>
        <source>confidential values released as</source>
        <translation>valores confidenciales publicados como</translation>
    </message>
    <message>
        <source>Each bucket&apos;s mean, its median, or its label (the interval or set).</source>
        <translation>La media de cada tramo, su mediana o su etiqueta (el intervalo o el conjunto).</translation>
    </message>
    <message>
        <source>random seed</source>
        <translation>semilla aleatoria</translation>
    </message>
    <message>
        <source>A whole number makes the run reproducible for an audit; the release is then only as private as the seed is secret</source>
        <translation>Un número entero hace reproducible el cálculo para una auditoría; la publicación es entonces tan privada como secreta sea la semilla</translation>
    </message>
    <message>
        <source>release type</source>
        <translation>tipo de publicación</translation>
    </message>
    <message>
        <source>Who may obtain the file: &apos;public&apos; (anyone), &apos;scientific&apos; (registered researchers), &apos;licensed&apos; (named users under an agreement) or &apos;enclave&apos; (only inside a controlled environment). The plan says when k is below what the guidance asks for this type.</source>
        <translation>Quién puede obtener el archivo: &apos;public&apos; (cualquiera), &apos;scientific&apos; (investigadores registrados), &apos;licensed&apos; (usuarios designados con un acuerdo) o &apos;enclave&apos; (solo dentro de un entorno controlado). El plan avisa cuando k está por debajo de lo que la guía pide para este tipo.</translation>
    </message>
    <message>
        <source>intruder scenario</source>
        <translation>escenario de intrusión</translation>
    </message>
    <message>
        <source>What an intruder is assumed to know and do (e.g. &apos;a neighbour who knows age, sex and commune&apos;), in a sentence or two; published with the release.</source>
        <translation>Lo que se supone que un intruso sabe y hace (p. ej. «un vecino que conoce la edad, el sexo y el municipio»), en una o dos frases; se publica con los datos.</translation>
    </message>
    <message>
        <source>hierarchies</source>
        <translation>jerarquías</translation>
    </message>
    <message>
        <source>A nominal quasi-identifier&apos;s classification, from the finest level to the coarsest (commune, district, province): groups are formed with it, and each releases the finest level all its members share, never a category one of them does not hold.</source>
        <translation>La clasificación de un cuasi-identificador nominal, del nivel más fino al más grueso (municipio, distrito, provincia): los grupos se forman con ella, y cada uno publica el nivel más fino que comparten todos sus miembros, nunca una categoría que uno de ellos no tenga.</translation>
    </message>
    <message>
        <source>bands</source>
        <translation>tramos</translation>
    </message>
    <message>
        <source>Public cut points of a numeric quasi-identifier (COLUMN=15:25:45:65): its values are replaced by their band before the records are grouped.</source>
        <translation>Puntos de corte públicos de un cuasi-identificador numérico (COLUMNA=15:25:45:65): sus valores se sustituyen por su tramo antes de agrupar los registros.</translation>
    </message>
    <message>
        <source>top codes</source>
        <translation>códigos superiores</translation>
    </message>
    <message>
        <source>A public top code of a numeric column (COLUMN=VALUE): larger values are replaced by it before the records are grouped.</source>
        <translation>Un código superior público de una columna numérica (COLUMNA=VALOR): los valores mayores se sustituyen por él antes de agrupar los registros.</translation>
    </message>
    <message>
        <source>bottom codes</source>
        <translation>códigos inferiores</translation>
    </message>
    <message>
        <source>A public bottom code of a numeric column (COLUMN=VALUE): smaller values are replaced by it before the records are grouped.</source>
        <translation>Un código inferior público de una columna numérica (COLUMNA=VALOR): los valores menores se sustituyen por él antes de agrupar los registros.</translation>
    </message>
</context>
<context>
    <name>words</name>
    <message>
        <source>At this level the release would be one single group of all {n} people: every quasi-identifier would be replaced by one value for everybody.</source>
        <extracomment>a :class:`~engine.release.Plan` and a :class:`~engine.release.RunSummary`, read by attribute: both modules import this one (the summary&apos;s published metadata carries its public phrases), so it does not import them the translation context of the templates in the app&apos;s .ts files every value (and the choice of the sentence) comes from summary fields declared published: the phrase may go out with the release (:func:`public_words`)</extracomment>
        <translation>Con este nivel, la publicación sería un único grupo con las {n} personas: cada cuasi-identificador se sustituiría por un mismo valor para todos.</translation>
    </message>
    <message>
        <source>Each group of at least {k} people looks like the whole file in its {columns} mix, within a factor {t}.</source>
        <translation>Cada grupo de al menos {k} personas se parece al archivo completo en su distribución de {columns}, con un factor de {t} como máximo.</translation>
    </message>
    <message>
        <source>So learning which group someone is in tells little more about their {columns} than the whole file already does, and nobody can be singled out by {qis}.</source>
        <translation>Así, saber en qué grupo está alguien dice poco más sobre su {columns} de lo que ya dice el archivo completo, y nadie puede ser singularizado por {qis}.</translation>
    </message>
    <message>
        <source>Every combination of {qis} that is released is shared by at least {k} people, so nobody can be singled out by them.</source>
        <translation>Cada combinación publicada de {qis} la comparten al menos {k} personas, así que nadie puede ser singularizado por ellas.</translation>
    </message>
    <message>
        <source>The groups will hold {average} people or more on average (k = {k} was asked).</source>
        <translation>Los grupos tendrán {average} personas o más en promedio (se pidió k = {k}).</translation>
    </message>
    <message>
        <source>Whether or not any one person is in the file changes the chance of any released {columns} value by at most a factor {factor} (ε = {epsilon}).</source>
        <translation>Que una persona cualquiera esté o no en el archivo cambia la probabilidad de cualquier valor publicado de {columns} como mucho en un factor {factor} (ε = {epsilon}).</translation>
    </message>
    <message>
        <source>Averaging in groups of {k} before the noise makes the noise {k} times smaller. The price: one person&apos;s own released value, compared with anybody else&apos;s, may be up to a factor {factor_k} more likely, not {factor} (e^(k·ε) instead of e^ε), and the people who share a group are visibly linked.</source>
        <translation>Promediar en grupos de {k} antes del ruido hace el ruido {k} veces menor. El precio: el valor publicado de una persona, comparado con el de cualquier otra, puede ser hasta un factor {factor_k} más probable, no {factor} (e^(k·ε) en lugar de e^ε), y las personas que comparten un grupo quedan visiblemente vinculadas.</translation>
    </message>
    <message>
        <source>Even so, that noise is {ratio} times as large as the spread of the middle half of the {column} values: the released values would be mostly noise. Narrower public limits, the buckets mechanism or a larger ε would keep more of them.</source>
        <translation>Aun así, ese ruido es {ratio} veces la dispersión de la mitad central de los valores de {column}: los valores publicados serían casi solo ruido. Límites públicos más estrechos, el mecanismo de intervalos o un ε mayor conservarían más de ellos.</translation>
    </message>
    <message>
        <source>That noise is {ratio} times as large as the spread of the middle half of the {column} values: the released values would be mostly noise. Averaging in groups of k before the noise, narrower public limits, the buckets mechanism or a larger ε would keep more of them.</source>
        <translation>Ese ruido es {ratio} veces la dispersión de la mitad central de los valores de {column}: los valores publicados serían casi solo ruido. Promediar en grupos de k antes del ruido, límites públicos más estrechos, el mecanismo de intervalos o un ε mayor conservarían más de ellos.</translation>
    </message>
    <message>
        <source>{column}: each answer is kept with probability {keep}, otherwise replaced by a category drawn at random.</source>
        <translation>{column}: cada respuesta se conserva con probabilidad {keep} y, si no, se sustituye por una categoría elegida al azar.</translation>
    </message>
    <message>
        <source>{column}: each value gets random noise; its lowest and highest possible values are estimated privately from the data first.</source>
        <translation>{column}: cada valor recibe ruido aleatorio; antes, sus valores mínimo y máximo posibles se estiman de forma privada a partir de los datos.</translation>
    </message>
    <message>
        <source>{column}: each value gets random noise in proportion to its size: half of the values stay within a factor {factor} of their true value, and every value stays between the public limits {low} and {high}.</source>
        <translation>{column}: cada valor recibe un ruido aleatorio proporcional a su tamaño: la mitad de los valores quedan dentro de un factor {factor} de su valor real, y todos quedan entre los límites públicos {low} y {high}.</translation>
    </message>
    <message>
        <source>{column}: each value gets random noise, about ±{error} on average, and stays between the public limits {low} and {high}.</source>
        <translation>{column}: cada valor recibe ruido aleatorio, de unos ±{error} en promedio, y se mantiene entre los límites públicos {low} y {high}.</translation>
    </message>
    <message>
        <source>The release is one single group of all {n} people: every quasi-identifier holds one value for everybody.</source>
        <translation>La publicación es un único grupo con las {n} personas: cada cuasi-identificador tiene un mismo valor para todos.</translation>
    </message>
    <message>
        <source>The {groups} groups hold at least {k} people each, and each looks like the whole file in its {columns} mix within a factor {t} (asked: {asked}).</source>
        <translation>Los {groups} grupos tienen al menos {k} personas cada uno, y cada uno se parece al archivo completo en su distribución de {columns} con un factor de {t} como máximo (pedido: {asked}).</translation>
    </message>
    <message>
        <source>The {groups} groups hold at least {k} people each.</source>
        <translation>Los {groups} grupos tienen al menos {k} personas cada uno.</translation>
    </message>
    <message>
        <source>{column}: the {missing} missing values are released empty, none filled in; {withheld} known values are released empty too, so that the groups could form.</source>
        <translation>{column}: los {missing} valores que faltan se publican vacíos, ninguno se rellena; {withheld} valores conocidos también se publican vacíos para que los grupos pudieran formarse.</translation>
    </message>
    <message>
        <source>{column}: the {missing} missing values are released empty, none filled in.</source>
        <translation>{column}: los {missing} valores que faltan se publican vacíos, ninguno se rellena.</translation>
    </message>
    <message>
        <source>{column}: {share} of the answers were changed at random.</source>
        <translation>{column}: el {share} de las respuestas se ha cambiado al azar.</translation>
    </message>
    <message>
        <source>{column}: the released values differ from the true ones by {error} on average.</source>
        <translation>{column}: los valores publicados difieren de los verdaderos en {error} en promedio.</translation>
    </message>
    <message>
        <source>{column}: the released values differ from the true ones by {error} on average, less than the ±{expected} the noise alone adds on average: a noisy value beyond the public limits {low} and {high} is clamped back to them, which brings it closer to the true one.</source>
        <translation>{column}: los valores publicados difieren de los verdaderos en {error} en promedio, menos que los ±{expected} que añade el ruido solo en promedio: un valor con ruido más allá de los límites públicos {low} y {high} se recorta a ellos, lo que lo acerca al verdadero.</translation>
    </message>
    <message>
        <source>{column}: the released values differ from the true ones by {error} on average, more than the ±{expected} the noise alone adds on average: values outside the public limits {low} and {high} are clamped to them before the noise, and values averaged in groups lose their own detail.</source>
        <translation>{column}: los valores publicados difieren de los verdaderos en {error} en promedio, más que los ±{expected} que añade el ruido solo en promedio: los valores fuera de los límites públicos {low} y {high} se recortan a ellos antes del ruido, y los valores promediados en grupos pierden su propio detalle.</translation>
    </message>
    <message>
        <source>{column}: the shares in the file are pulled towards equal shares by the random answers; corrected for that (from the released answers and the public chance of keeping one), the original shares are estimated at {shares}.</source>
        <translation>{column}: las respuestas aleatorias acercan las proporciones del archivo a proporciones iguales; corregidas (a partir de las respuestas publicadas y de la probabilidad pública de conservar una), las proporciones originales se estiman en {shares}.</translation>
    </message>
</context>
</TS>
