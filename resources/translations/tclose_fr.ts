<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>BucketSpin</name>
    <message>
        <source>How many buckets the confidential values are grouped into; &apos;automatic&apos; lets the engine choose for t and k. More buckets keep more detail but need larger groups.</source>
        <translation>En combien de tranches les valeurs confidentielles sont regroupées&#xa0;; «&#xa0;automatique&#xa0;» laisse le moteur choisir selon t et k. Plus de tranches gardent plus de détail mais demandent des groupes plus grands.</translation>
    </message>
</context>
<context>
    <name>CategoriesBox</name>
    <message>
        <source>empty = its declared order, {order}</source>
        <extracomment>the column types whose values are categories (randomized response on the noise route) the page&apos;s bindings, which every field joins (:meth:`bind`) the text field of each column that has had one, by column name</extracomment>
        <translation>vide = son ordre déclaré, {order}</translation>
    </message>
    <message>
        <source>e.g. cold|flu|HIV</source>
        <translation>p. ex. rhume|grippe|VIH</translation>
    </message>
    <message>
        <source>Public categories of {column}</source>
        <translation>Catégories publiques de {column}</translation>
    </message>
    <message>
        <source>{column}:</source>
        <translation>{column}&#xa0;:</translation>
    </message>
</context>
<context>
    <name>Choices</name>
    <message>
        <source>automatic</source>
        <translation>automatique</translation>
    </message>
    <message>
        <source>comma ,</source>
        <extracomment>the characters between the values of a CSV file (None: detected when the file is read)</extracomment>
        <translation>virgule ,</translation>
    </message>
    <message>
        <source>semicolon ;</source>
        <translation>point-virgule&#xa0;;</translation>
    </message>
    <message>
        <source>tab</source>
        <translation>tabulation</translation>
    </message>
    <message>
        <source>bar |</source>
        <translation>barre |</translation>
    </message>
    <message>
        <source>point .</source>
        <extracomment>the decimal marks of the numbers in a CSV file (None: detected when the file is read)</extracomment>
        <translation>point .</translation>
    </message>
</context>
<context>
    <name>DataFrameModel</name>
    <message>
        <source>(missing)</source>
        <translation>(manquant)</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Something went wrong inside tclose; this is a bug, not your mistake.</source>
        <translation>Une erreur s&apos;est produite dans tclose&#xa0;; c&apos;est un défaut du programme, pas une erreur de votre part.</translation>
    </message>
    <message>
        <source>The details were written to {path}. The app keeps working.</source>
        <translation>Les détails ont été enregistrés dans {path}. L&apos;application continue de fonctionner.</translation>
    </message>
</context>
<context>
    <name>ExportPage</name>
    <message>
        <source>5. Export</source>
        <extracomment>the reason of an OutputError that the user may override (replace a JSON file not ours) milliseconds between the last edit of the file name and checking it what the CSV writer offers (the default follows the reader&apos;s decimal mark) why the target cannot be written (&quot;&quot; when it can) and the writer&apos;s reason for it</extracomment>
        <translation>5. Exporter</translation>
    </message>
    <message>
        <source>Write the release. Only the protected table is written, with a description of how it was made; the original file is never changed.</source>
        <translation>Enregistrez la publication. Seule la table protégée est écrite, avec une description de la façon dont elle a été produite&#xa0;; le fichier d&apos;origine n&apos;est jamais modifié.</translation>
    </message>
    <message>
        <source>The character between values in the CSV file</source>
        <translation>Le caractère entre les valeurs du fichier CSV</translation>
    </message>
    <message>
        <source>The decimal mark of numbers in the CSV file</source>
        <translation>Le séparateur décimal des nombres du fichier CSV</translation>
    </message>
    <message>
        <source>Mark the file as UTF-8 so that Excel shows accents right</source>
        <translation>Marquer le fichier comme UTF-8 pour qu&apos;Excel affiche bien les accents</translation>
    </message>
    <message>
        <source>Starts the CSV with a byte-order mark; some older tools dislike it</source>
        <translation>Fait commencer le CSV par une marque d&apos;ordre des octets (BOM)&#xa0;; certains outils anciens ne l&apos;acceptent pas</translation>
    </message>
    <message>
        <source>{format} keeps the description inside the file</source>
        <translation>{format} garde la description dans le fichier</translation>
    </message>
    <message>
        <source>{format} puts it in a JSON file beside it</source>
        <translation>{format} la met dans un fichier JSON à côté</translation>
    </message>
    <message>
        <source>; </source>
        <translation>&#xa0;; </translation>
    </message>
    <message>
        <source>The file name must end in {name}.</source>
        <translation>Le nom du fichier doit se terminer par {name}.</translation>
    </message>
    <message>
        <source>The file name must end in {names} or {last}.</source>
        <translation>Le nom du fichier doit se terminer par {names} ou {last}.</translation>
    </message>
    <message>
        <source>Also write the release report (HTML) beside it</source>
        <translation>Écrire aussi le rapport de la publication (HTML) à côté</translation>
    </message>
    <message>
        <source>A self-contained page for the disclosure review board, not for publication: parameters, guarantees with their assumptions, buckets, class sizes, the preview&apos;s plots, information loss, the seed</source>
        <translation>Une page autonome pour le comité d&apos;examen de la divulgation, pas pour la publication&#xa0;: paramètres, garanties et leurs hypothèses, intervalles, tailles des classes, graphiques de l&apos;aperçu, perte d&apos;information, la graine</translation>
    </message>
    <message>
        <source>Also write a DDI codebook (XML) beside it</source>
        <translation>Écrire aussi un dictionnaire des codes DDI (XML) à côté</translation>
    </message>
    <message>
        <source>A DDI-Codebook 2.5 description for a data catalogue (NADA, the Microdata Library): each released variable with its label, categories and released frequencies, and what was done to it; published facts only</source>
        <translation>Une description DDI-Codebook 2.5 pour un catalogue de données (NADA, la Microdata Library) : chaque variable diffusée avec son libellé, ses catégories et leurs fréquences diffusées, et ce qui lui a été fait ; uniquement des faits publiés</translation>
    </message>
    <message>
        <source>Leave the input file&apos;s name out of the published files</source>
        <translation>Ne pas mettre le nom du fichier d&apos;entrée dans les fichiers publiés</translation>
    </message>
    <message>
        <source>The description written with the release names the file it was made from unless this is ticked; the report (for the review) always names it</source>
        <translation>La description écrite avec la publication nomme le fichier dont elle est issue, sauf si cette case est cochée&#xa0;; le rapport (pour la revue) le nomme toujours</translation>
    </message>
    <message>
        <source>Where the release is written; Enter exports</source>
        <translation>Où la publication est enregistrée&#xa0;; Entrée lance l&apos;export</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Parcourir…</translation>
    </message>
    <message>
        <source>Choose the file to write</source>
        <translation>Choisissez le fichier à écrire</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Exporter</translation>
    </message>
    <message>
        <source>Write the release now</source>
        <translation>Écrire la publication maintenant</translation>
    </message>
    <message>
        <source>Release file</source>
        <translation>Fichier publié</translation>
    </message>
    <message>
        <source>File type:</source>
        <translation>Type de fichier&#xa0;:</translation>
    </message>
    <message>
        <source>CSV separator:</source>
        <translation>Séparateur CSV&#xa0;:</translation>
    </message>
    <message>
        <source>CSV decimal mark:</source>
        <translation>Séparateur décimal CSV&#xa0;:</translation>
    </message>
    <message>
        <source>Save as:</source>
        <translation>Enregistrer sous&#xa0;:</translation>
    </message>
    <message>
        <source>The release has {rows} rows and {columns} columns: {names}. Rows are shuffled; identifiers and untagged columns are left out.</source>
        <translation>La publication compte {rows} lignes et {columns} colonnes&#xa0;: {names}. Les lignes sont mélangées&#xa0;; les identifiants et les colonnes sans rôle sont exclus.</translation>
    </message>
    <message>
        <source>Choose where to save the release.</source>
        <translation>Choisissez où enregistrer la publication.</translation>
    </message>
    <message>
        <source>&amp;Replace…</source>
        <translation>&amp;Remplacer…</translation>
    </message>
    <message>
        <source>&amp;Replace the existing file</source>
        <translation>&amp;Remplacer le fichier existant</translation>
    </message>
    <message>
        <source>Save the release</source>
        <translation>Enregistrer la publication</translation>
    </message>
    <message>
        <source>With a decimal comma, choose &apos;;&apos; or tab as the separator.</source>
        <translation>Avec une virgule décimale, choisissez &apos;;&apos; ou la tabulation comme séparateur.</translation>
    </message>
    <message>
        <source>Writing {name}…</source>
        <translation>Écriture de {name}…</translation>
    </message>
    <message>
        <source>Writing {name}</source>
        <translation>Écriture de {name}</translation>
    </message>
    <message>
        <source>Replace a file?</source>
        <translation>Remplacer un fichier&#xa0;?</translation>
    </message>
    <message>
        <source>Replace it anyway?</source>
        <translation>Le remplacer quand même&#xa0;?</translation>
    </message>
    <message>
        <source>Written:</source>
        <translation>Écrit&#xa0;:</translation>
    </message>
    <message>
        <source>Open the folder</source>
        <translation>Ouvrir le dossier</translation>
    </message>
    <message>
        <source>The seed {seed} is not in the published files; it is in the report {report} (for the review, not for publication) and in the project when you save it.</source>
        <translation>La graine {seed} ne figure pas dans les fichiers publiés&#xa0;; elle est dans le rapport {report} (pour la revue, pas pour la publication) et dans le projet quand vous l&apos;enregistrez.</translation>
    </message>
    <message>
        <source>The seed {seed} is not in the published files; save the project to keep it with the review record.</source>
        <translation>La graine {seed} ne figure pas dans les fichiers publiés&#xa0;; enregistrez le projet pour la garder avec le dossier de revue.</translation>
    </message>
    <message>
        <source>Nothing was written.</source>
        <translation>Rien n&apos;a été écrit.</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exporter</translation>
    </message>
    <message>
        <source>Export cancelled; nothing was written.</source>
        <translation>Export annulé&#xa0;; rien n&apos;a été écrit.</translation>
    </message>
</context>
<context>
    <name>FigureView</name>
    <message>
        <source>Show the data as a table</source>
        <translation>Afficher les données sous forme de tableau</translation>
    </message>
    <message>
        <source>Data of the plot</source>
        <translation>Données du graphique</translation>
    </message>
    <message>
        <source>Data of the plot: {title}</source>
        <translation>Données du graphique&#xa0;: {title}</translation>
    </message>
    <message>
        <source>Show the plot</source>
        <translation>Afficher le graphique</translation>
    </message>
</context>
<context>
    <name>GuideWindow</name>
    <message>
        <source>tclose user guide</source>
        <extracomment>the section to keep at the top while the pictures are fitted to the window (until the user scrolls)</extracomment>
        <translation>Guide de l&apos;utilisateur de tclose</translation>
    </message>
</context>
<context>
    <name>HelpButton</name>
    <message>
        <source>Open the user guide at this step (F1)</source>
        <translation>Ouvrir le guide de l&apos;utilisateur à cette étape (F1)</translation>
    </message>
    <message>
        <source>Help for this step</source>
        <translation>Aide pour cette étape</translation>
    </message>
</context>
<context>
    <name>ImportPage</name>
    <message>
        <source>1. Import</source>
        <extracomment>what the reader takes for each choice (None: detect) widest a column of the preview starts (pixels); the user can widen it</extracomment>
        <translation>1. Importer</translation>
    </message>
    <message>
        <source>&amp;Open file…</source>
        <translation>&amp;Ouvrir un fichier…</translation>
    </message>
    <message>
        <source>Choose a CSV or Excel file to anonymize (Ctrl+O)</source>
        <translation>Choisissez un fichier CSV ou Excel à anonymiser (Ctrl+O)</translation>
    </message>
    <message>
        <source>Open the &amp;sample</source>
        <translation>Ouvrir l&apos;é&amp;chantillon</translation>
    </message>
    <message>
        <source>Open a small made-up survey (400 people) to try tclose without your own data</source>
        <translation>Ouvrir une petite enquête fictive (400 personnes) pour essayer tclose sans vos propres données</translation>
    </message>
    <message>
        <source>Recently opened files; press Enter or double-click to open one</source>
        <translation>Fichiers ouverts récemment&#xa0;; appuyez sur Entrée ou double-cliquez pour en ouvrir un</translation>
    </message>
    <message>
        <source>The worksheet of the workbook to read</source>
        <translation>La feuille du classeur à lire</translation>
    </message>
    <message>
        <source>The character between values in a text file</source>
        <translation>Le caractère entre les valeurs d&apos;un fichier texte</translation>
    </message>
    <message>
        <source>How the text file&apos;s characters are stored</source>
        <translation>Comment les caractères du fichier texte sont codés</translation>
    </message>
    <message>
        <source>The decimal mark of numbers in a text file, or of numbers stored as text in a workbook (3.549,40)</source>
        <translation>Le séparateur décimal des nombres d&apos;un fichier texte, ou des nombres stockés comme texte dans un classeur (3.549,40)</translation>
    </message>
    <message>
        <source>The row that holds the column names (1 = first row); rows above it are titles</source>
        <translation>La ligne qui contient les noms des colonnes (1 = première ligne)&#xa0;; les lignes au-dessus sont des titres</translation>
    </message>
    <message>
        <source>&amp;Read again</source>
        <translation>&amp;Relire</translation>
    </message>
    <message>
        <source>Read the file again with the options chosen here</source>
        <translation>Relire le fichier avec les options choisies ici</translation>
    </message>
    <message>
        <source>No file open yet; Next is enabled once a table has been read.</source>
        <translation>Aucun fichier ouvert pour l&apos;instant&#xa0;; Suivant s&apos;active dès qu&apos;une table a été lue.</translation>
    </message>
    <message>
        <source>Open the spreadsheet that holds one row per person (CSV, Excel, OpenDocument, Parquet, SPSS, Stata). You can also drop a file on this window.</source>
        <translation>Ouvrez le tableur qui contient une ligne par personne (CSV, Excel, OpenDocument, Parquet, SPSS, Stata). Vous pouvez aussi déposer un fichier sur cette fenêtre.</translation>
    </message>
    <message>
        <source>Rows of the file</source>
        <translation>Lignes du fichier</translation>
    </message>
    <message>
        <source>All rows can be scrolled; only the visible ones are formatted.</source>
        <translation>Toutes les lignes peuvent défiler&#xa0;; seules les lignes visibles sont mises en forme.</translation>
    </message>
    <message>
        <source>Recent files</source>
        <translation>Fichiers récents</translation>
    </message>
    <message>
        <source>How the file is read</source>
        <translation>Comment le fichier est lu</translation>
    </message>
    <message>
        <source>Sheet:</source>
        <translation>Feuille&#xa0;:</translation>
    </message>
    <message>
        <source>Separator:</source>
        <translation>Séparateur&#xa0;:</translation>
    </message>
    <message>
        <source>Encoding:</source>
        <translation>Encodage&#xa0;:</translation>
    </message>
    <message>
        <source>Decimal mark:</source>
        <translation>Séparateur décimal&#xa0;:</translation>
    </message>
    <message>
        <source>Header row:</source>
        <translation>Ligne d&apos;en-tête&#xa0;:</translation>
    </message>
    <message>
        <source>Drop a CSV or Excel file here, click &lt;b&gt;Open file…&lt;/b&gt;,&lt;br&gt;or try tclose on the bundled sample with &lt;b&gt;Open the sample&lt;/b&gt;.</source>
        <translation>Déposez ici un fichier CSV ou Excel, cliquez sur &lt;b&gt;Ouvrir un fichier…&lt;/b&gt;,&lt;br&gt;ou essayez tclose sur l&apos;échantillon fourni avec &lt;b&gt;Ouvrir l&apos;échantillon&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>Tables</source>
        <translation>Tables</translation>
    </message>
    <message>
        <source>All files</source>
        <translation>Tous les fichiers</translation>
    </message>
    <message>
        <source>Open a table</source>
        <translation>Ouvrir une table</translation>
    </message>
    <message>
        <source>Reading {name}…</source>
        <translation>Lecture de {name}…</translation>
    </message>
    <message>
        <source>Reading {name}</source>
        <translation>Lecture de {name}</translation>
    </message>
    <message>
        <source>Reading was cancelled.</source>
        <translation>La lecture a été annulée.</translation>
    </message>
    <message>
        <source>The file could not be read: {error}</source>
        <translation>Le fichier n&apos;a pas pu être lu&#xa0;: {error}</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importer</translation>
    </message>
    <message>
        <source>{setting} (detected)</source>
        <translation>{setting} (par détection automatique)</translation>
    </message>
    <message>
        <source>format {format}</source>
        <translation>format {format}</translation>
    </message>
    <message>
        <source>sheet “{sheet}”</source>
        <translation>feuille «&#xa0;{sheet}&#xa0;»</translation>
    </message>
    <message>
        <source>separator {separator}</source>
        <translation>séparateur {separator}</translation>
    </message>
    <message>
        <source>encoding {encoding}</source>
        <translation>encodage {encoding}</translation>
    </message>
    <message>
        <source>decimal mark {mark}</source>
        <translation>séparateur décimal {mark}</translation>
    </message>
    <message>
        <source>header on row {row}</source>
        <translation>en-tête à la ligne {row}</translation>
    </message>
    <message>
        <source>{rows} rows × {columns} columns</source>
        <translation>{rows} lignes × {columns} colonnes</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>(aucun pour l&apos;instant)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>tclose {version} — publish microdata safely</source>
        <translation>tclose {version} — publier des microdonnées en toute sécurité</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>&amp;Ouvrir…</translation>
    </message>
    <message>
        <source>Open a table to anonymize (Ctrl+O)</source>
        <translation>Ouvrir une table à anonymiser (Ctrl+O)</translation>
    </message>
    <message>
        <source>Open the &amp;sample</source>
        <translation>Ouvrir l&apos;é&amp;chantillon</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Ouvrir un fichier &amp;récent</translation>
    </message>
    <message>
        <source>&amp;Save project…</source>
        <translation>&amp;Enregistrer le projet…</translation>
    </message>
    <message>
        <source>Save the file, tags and parameters so the release can be redone (tclose run)</source>
        <translation>Enregistrer le fichier, les rôles et les paramètres pour pouvoir refaire la publication (tclose run)</translation>
    </message>
    <message>
        <source>Open &amp;project…</source>
        <translation>Ouvrir un &amp;projet…</translation>
    </message>
    <message>
        <source>Open a saved project and its data file</source>
        <translation>Ouvrir un projet enregistré et son fichier de données</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Outils</translation>
    </message>
    <message>
        <source>Privacy–utility &amp;sweep…</source>
        <translation>&amp;Balayage confidentialité–utilité…</translation>
    </message>
    <message>
        <source>Try a grid of privacy levels and k, compare the information lost, pick a point</source>
        <translation>Essayer une grille de niveaux de confidentialité et de k, comparer l&apos;information perdue, choisir un point</translation>
    </message>
    <message>
        <source>S&amp;ettings…</source>
        <translation>&amp;Paramètres…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>&amp;Guide de l&apos;utilisateur</translation>
    </message>
    <message>
        <source>The user guide, at the step you are on (F1)</source>
        <translation>Le guide de l&apos;utilisateur, à l&apos;étape où vous êtes (F1)</translation>
    </message>
    <message>
        <source>Open the &amp;log folder</source>
        <translation>Ouvrir le dossier du &amp;journal</translation>
    </message>
    <message>
        <source>&amp;About tclose</source>
        <translation>À &amp;propos de tclose</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>Guide de l&apos;utilisateur</translation>
    </message>
    <message>
        <source>Save project</source>
        <translation>Enregistrer le projet</translation>
    </message>
    <message>
        <source>Nothing to save yet: {problem}</source>
        <translation>Rien à enregistrer pour l&apos;instant&#xa0;: {problem}</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>Ouvrir un projet</translation>
    </message>
    <message>
        <source>Reading the project&apos;s data</source>
        <translation>Lecture des données du projet</translation>
    </message>
    <message>
        <source>Privacy–utility sweep</source>
        <translation>Balayage confidentialité–utilité</translation>
    </message>
    <message>
        <source>First: {problem}</source>
        <translation>D&apos;abord&#xa0;: {problem}</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>(aucun pour l&apos;instant)</translation>
    </message>
    <message>
        <source>About tclose</source>
        <translation>À propos de tclose</translation>
    </message>
    <message>
        <source>Publish microdata with k-anonymity, t-closeness and ε-differential privacy for the confidential columns; every release is checked by an independent verifier before it can be written.</source>
        <translation>Publiez des microdonnées avec k-anonymat, t-proximité et ε-confidentialité différentielle pour les colonnes confidentielles&#xa0;; chaque publication est contrôlée par un vérificateur indépendant avant de pouvoir être écrite.</translation>
    </message>
    <message>
        <source>Log file: {path}</source>
        <translation>Fichier journal&#xa0;: {path}</translation>
    </message>
</context>
<context>
    <name>NumberField</name>
    <message>
        <source>{label} must be more than 0 % and less than 100 %.</source>
        <extracomment>the user set a new value (None: the ``none_text`` choice) the text typed stopped or started being a value of the field (&quot;&quot; when it is one) the declared field (engine.params.Field): label, help, unit, range, step</extracomment>
        <translation>{label} doit être supérieur à 0&#xa0;% et inférieur à 100&#xa0;%.</translation>
    </message>
</context>
<context>
    <name>Plots</name>
    <message>
        <source>{column}: {b} buckets and one for missing values</source>
        <extracomment>at most this many values of a category are listed in a before/after table a numeric before/after table has this many ranges of equal width</extracomment>
        <translation>{column}&#xa0;: {b} tranches et une pour les valeurs manquantes</translation>
    </message>
    <message>
        <source>{column}: {b} buckets</source>
        <translation>{column}&#xa0;: {b} tranches</translation>
    </message>
    <message>
        <source>The values of {column} are grouped into {b} buckets of {smallest} to {largest} records.</source>
        <translation>Les valeurs de {column} sont regroupées en {b} tranches de {smallest} à {largest} enregistrements.</translation>
    </message>
    <message>
        <source>The missing values form a bucket of their own, with {count} records.</source>
        <translation>Les valeurs manquantes forment une tranche à part, de {count} enregistrements.</translation>
    </message>
    <message>
        <source>The largest bucket is {label}, with {count} records ({share}).</source>
        <translation>La plus grande tranche est {label}, avec {count} enregistrements ({share}).</translation>
    </message>
    <message>
        <source>bucket</source>
        <translation>tranche</translation>
    </message>
    <message>
        <source>records</source>
        <translation>enregistrements</translation>
    </message>
    <message>
        <source>share</source>
        <translation>part</translation>
    </message>
    <message>
        <source>{n} classes, smallest {low}, largest {high}</source>
        <translation>{n} classes, la plus petite de {low}, la plus grande de {high}</translation>
    </message>
    <message>
        <source>How many classes hold each number of records: {n} classes of {low} to {high} records; k asked is {k}.</source>
        <translation>Combien de classes comptent chaque nombre d&apos;enregistrements&#xa0;: {n} classes de {low} à {high} enregistrements&#xa0;; le k demandé est {k}.</translation>
    </message>
    <message>
        <source>The commonest size is {size} records ({count} classes).</source>
        <translation>La taille la plus fréquente est de {size} enregistrements ({count} classes).</translation>
    </message>
    <message>
        <source>records per class</source>
        <translation>enregistrements par classe</translation>
    </message>
    <message>
        <source>classes</source>
        <translation>classes</translation>
    </message>
    <message>
        <source>For each of {classes} classes and {b} buckets: the bucket&apos;s share in the class divided by its share in the whole file. The ratios lie between {lowest} and {highest}; t allows {low} to {high}.</source>
        <translation>Pour chacune des {classes} classes et des {b} tranches&#xa0;: la part de la tranche dans la classe divisée par sa part dans le fichier entier. Les rapports vont de {lowest} à {highest}&#xa0;; t permet de {low} à {high}.</translation>
    </message>
    <message>
        <source>Every ratio is inside the band.</source>
        <translation>Tous les rapports sont dans la bande.</translation>
    </message>
    <message>
        <source>{cells} ratios are outside the band.</source>
        <translation>{cells} rapports sont hors de la bande.</translation>
    </message>
    <message>
        <source>Bucket share in each class ÷ share in the whole file</source>
        <translation>Part de la tranche dans chaque classe ÷ part dans le fichier entier</translation>
    </message>
    <message>
        <source>class</source>
        <translation>classe</translation>
    </message>
    <message>
        <source>{column}: before and after</source>
        <translation>{column}&#xa0;: avant et après</translation>
    </message>
    <message>
        <source>before</source>
        <translation>avant</translation>
    </message>
    <message>
        <source>after</source>
        <translation>après</translation>
    </message>
    <message>
        <source>{column} before and after the release: mean {mean_before} → {mean_after}, median {median_before} → {median_after}.</source>
        <translation>{column} avant et après la publication&#xa0;: moyenne {mean_before} → {mean_after}, médiane {median_before} → {median_after}.</translation>
    </message>
    <message>
        <source>range</source>
        <translation>intervalle</translation>
    </message>
    <message>
        <source>{column} before and after the release: {before} distinct values before, {after} after; the commonest after is {top} ({count} records).</source>
        <translation>{column} avant et après la publication&#xa0;: {before} valeurs distinctes avant, {after} après&#xa0;; la plus fréquente après est {top} ({count} enregistrements).</translation>
    </message>
    <message>
        <source>The table lists the first {n} of {total} values.</source>
        <translation>Le tableau présente les {n} premières des {total} valeurs.</translation>
    </message>
    <message>
        <source>value</source>
        <translation>valeur</translation>
    </message>
    <message>
        <source>QI information loss (SSE/SST)</source>
        <extracomment>the sweep&apos;s measures by name (engine.report.sweep), as the plot&apos;s axis names them</extracomment>
        <translation>perte d&apos;information des QI (SSE/SST)</translation>
    </message>
    <message>
        <source>confidential distortion (SSE/SST)</source>
        <translation>distorsion des valeurs confidentielles (SSE/SST)</translation>
    </message>
    <message>
        <source>relative error of the total</source>
        <translation>erreur relative du total</translation>
    </message>
    <message>
        <source>relative error of the group means</source>
        <translation>erreur relative des moyennes par groupe</translation>
    </message>
    <message>
        <source>relative error of the regression coefficients</source>
        <translation>erreur relative des coefficients de régression</translation>
    </message>
    <message>
        <source>{measure} against {symbol}, a curve for each k ({ks}): {points} points, {bad} of them infeasible.</source>
        <translation>{measure} en fonction de {symbol}, une courbe par k ({ks})&#xa0;: {points} points, dont {bad} non réalisables.</translation>
    </message>
    <message>
        <source>The least loss, {loss}, is at {symbol} = {value} and k = {k}.</source>
        <translation>La plus petite perte, {loss}, est à {symbol} = {value} et k = {k}.</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>oui</translation>
    </message>
    <message>
        <source>no</source>
        <translation>non</translation>
    </message>
    <message>
        <source>Information loss against {symbol}</source>
        <translation>Perte d&apos;information en fonction de {symbol}</translation>
    </message>
    <message>
        <source>feasible</source>
        <translation>réalisable</translation>
    </message>
</context>
<context>
    <name>PreviewPage</name>
    <message>
        <source>4. Preview</source>
        <translation>4. Aperçu</translation>
    </message>
    <message>
        <source>The release is computed on your computer and checked by an independent verifier. Change k, the buckets or the release format and run again until the balance suits you.</source>
        <translation>La publication est calculée sur votre ordinateur et contrôlée par un vérificateur indépendant. Modifiez k, les tranches ou le format de publication et relancez jusqu&apos;à obtenir l&apos;équilibre voulu.</translation>
    </message>
    <message>
        <source>&amp;Run again</source>
        <translation>&amp;Relancer</translation>
    </message>
    <message>
        <source>Compute the release again with these settings</source>
        <translation>Recalculer la publication avec ces réglages</translation>
    </message>
    <message>
        <source>How the quasi-identifiers are released</source>
        <translation>Comment les quasi-identifiants sont publiés</translation>
    </message>
    <message>
        <source>How the confidential values are released</source>
        <translation>Comment les valeurs confidentielles sont publiées</translation>
    </message>
    <message>
        <source>&amp;k:</source>
        <translation>&amp;k&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Buckets:</source>
        <translation>&amp;Tranches&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Quasi-identifiers as:</source>
        <translation>&amp;Quasi-identifiants sous forme de&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Confidential as:</source>
        <translation>&amp;Confidentiels sous forme de&#xa0;:</translation>
    </message>
    <message>
        <source>What the release achieves, as measured by the verifier</source>
        <translation>Ce que la publication atteint, tel que mesuré par le vérificateur</translation>
    </message>
    <message>
        <source>Details: guarantees and their sources</source>
        <translation>Détails&#xa0;: garanties et leurs sources</translation>
    </message>
    <message>
        <source>The bucket histogram appears here.</source>
        <translation>L&apos;histogramme des tranches apparaît ici.</translation>
    </message>
    <message>
        <source>The class sizes appear here.</source>
        <translation>Les tailles des classes apparaissent ici.</translation>
    </message>
    <message>
        <source>The closeness heat map appears here.</source>
        <translation>La carte de chaleur de la proximité apparaît ici.</translation>
    </message>
    <message>
        <source>Confidential buckets</source>
        <translation>Tranches confidentielles</translation>
    </message>
    <message>
        <source>The confidential values with the bucket boundaries</source>
        <translation>Les valeurs confidentielles avec les limites des tranches</translation>
    </message>
    <message>
        <source>Class sizes</source>
        <translation>Tailles des classes</translation>
    </message>
    <message>
        <source>How many records each group (equivalence class) holds</source>
        <translation>Combien d&apos;enregistrements contient chaque groupe (classe d&apos;équivalence)</translation>
    </message>
    <message>
        <source>Closeness</source>
        <translation>Proximité</translation>
    </message>
    <message>
        <source>Per class and bucket: its share in the class divided by its share overall</source>
        <translation>Par classe et par tranche&#xa0;: sa part dans la classe divisée par sa part dans l&apos;ensemble</translation>
    </message>
    <message>
        <source>The quasi-identifier to compare before and after recoding</source>
        <translation>Le quasi-identifiant à comparer avant et après le recodage</translation>
    </message>
    <message>
        <source>A quasi-identifier before and after.</source>
        <translation>Un quasi-identifiant avant et après.</translation>
    </message>
    <message>
        <source>Before / after</source>
        <translation>Avant / après</translation>
    </message>
    <message>
        <source>A quasi-identifier&apos;s distribution before and after recoding</source>
        <translation>La distribution d&apos;un quasi-identifiant avant et après le recodage</translation>
    </message>
    <message>
        <source>Original (for the review, not for publication)</source>
        <translation>Original (pour la revue, pas pour la publication)</translation>
    </message>
    <message>
        <source>Disclosure risk (original → release; for the review)</source>
        <translation>Risque de divulgation (original → publication&#xa0;; pour la revue)</translation>
    </message>
    <message>
        <source>What an analysis keeps (original → release; for the review, not for publication)</source>
        <translation>Ce que garde une analyse (original → publication&#xa0;; pour la revue, pas pour la publication)</translation>
    </message>
    <message>
        <source>Released</source>
        <translation>Publié</translation>
    </message>
    <message>
        <source>What the release achieves</source>
        <translation>Ce que la publication obtient</translation>
    </message>
    <message>
        <source>Guarantees and their sources</source>
        <translation>Garanties et leurs sources</translation>
    </message>
    <message>
        <source>Plots and rows of the release</source>
        <translation>Graphiques et lignes de la publication</translation>
    </message>
    <message>
        <source>Quasi-identifier:</source>
        <translation>Quasi-identifiant&#xa0;:</translation>
    </message>
    <message>
        <source>Original rows</source>
        <translation>Lignes d&apos;origine</translation>
    </message>
    <message>
        <source>Released rows</source>
        <translation>Lignes publiées</translation>
    </message>
    <message>
        <source>Original and released rows</source>
        <translation>Lignes d&apos;origine et publiées</translation>
    </message>
    <message>
        <source>The first {n} released rows (shuffled, as written), each beside the record it was made from</source>
        <translation>Les {n} premières lignes publiées (mélangées, telles qu&apos;écrites), chacune à côté de l&apos;enregistrement dont elle provient</translation>
    </message>
    <message>
        <source>Confidential: the values themselves, with random noise.</source>
        <translation>Confidentiel&#xa0;: les valeurs elles-mêmes, avec un bruit aléatoire.</translation>
    </message>
    <message>
        <source>The settings changed: press Run again to see the release.</source>
        <translation>Les réglages ont changé&#xa0;: cliquez sur Relancer pour voir la publication.</translation>
    </message>
    <message>
        <source>Computing the release…</source>
        <translation>Calcul de la publication…</translation>
    </message>
    <message>
        <source>What the release achieves (k, t, ε, information loss) appears here once it is computed.</source>
        <translation>Ce que la publication atteint (k, t, ε, perte d&apos;information) apparaît ici une fois calculée.</translation>
    </message>
    <message>
        <source>Anonymizing</source>
        <translation>Anonymisation</translation>
    </message>
    <message>
        <source>{message} Try: {tips}</source>
        <translation>{message} Essayez&#xa0;: {tips}</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>Le calcul a échoué.</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Aperçu</translation>
    </message>
    <message>
        <source>Cancelled; press Run again to compute the release.</source>
        <translation>Annulé&#xa0;; cliquez sur Relancer pour calculer la publication.</translation>
    </message>
    <message>
        <source>Out of date: a new release is being computed…</source>
        <translation>Périmé&#xa0;: une nouvelle publication est en cours de calcul…</translation>
    </message>
    <message>
        <source>Out of date: these results are of other settings. Press Run again.</source>
        <translation>Périmé&#xa0;: ces résultats correspondent à d&apos;autres réglages. Cliquez sur Relancer.</translation>
    </message>
    <message>
        <source>Confidential values</source>
        <translation>Valeurs confidentielles</translation>
    </message>
    <message>
        <source>ε = {epsilon}, from t (Proposition 3)</source>
        <translation>ε = {epsilon}, d&apos;après t (proposition 3)</translation>
    </message>
    <message>
        <source>stochastically {t}-close (Proposition 1, smallest class)</source>
        <translation>stochastiquement {t}-proche (proposition 1, plus petite classe)</translation>
    </message>
    <message>
        <source>Please note</source>
        <translation>À noter</translation>
    </message>
    <message>
        <source>{times} × the values&apos; own variation</source>
        <translation>{times} × la variation propre des valeurs</translation>
    </message>
    <message>
        <source>SSE/SST above 100 %: the released values lie further from the true ones than the true ones lie from their mean</source>
        <translation>SSE/SST au-delà de 100&#xa0;%&#xa0;: les valeurs publiées s’écartent davantage des vraies que celles-ci de leur moyenne</translation>
    </message>
    <message>
        <source>{column}: the plan expected the noise to move each value by about ±{expected}; the release differs from the true values by {measured} on average, less, because {share} of the released values were pushed past the public bounds {low} to {high} and set to the bound, which cuts their noise short.</source>
        <translation>{column}&#xa0;: le plan prévoyait que le bruit déplace chaque valeur d’environ ±{expected}&#xa0;; la publication s’écarte des vraies valeurs de {measured} en moyenne, moins, car le bruit a poussé {share} des valeurs publiées au-delà des bornes publiques {low} à {high} et elles ont été ramenées à la borne, ce qui écourte leur bruit.</translation>
    </message>
    <message>
        <source>{column}: the plan expected the noise to move each value by about ±{expected}; the release differs from the true values by {measured} on average, more, because each value was first replaced by the mean of its group of {k} before the noise was added.</source>
        <translation>{column}&#xa0;: le plan prévoyait que le bruit déplace chaque valeur d’environ ±{expected}&#xa0;; la publication s’écarte des vraies valeurs de {measured} en moyenne, plus, car chaque valeur a d’abord été remplacée par la moyenne de son groupe de {k} avant l’ajout du bruit.</translation>
    </message>
    <message>
        <source>Buckets</source>
        <translation>Tranches</translation>
    </message>
    <message>
        <source>Compared with the original data below: for the review, not for publication (the published files hold none of it).</source>
        <translation>Ce qui suit est comparé aux données d&apos;origine&#xa0;: pour la revue, pas pour la publication (les fichiers publiés n&apos;en contiennent rien).</translation>
    </message>
    <message>
        <source>Why the groups are larger than k:</source>
        <translation>Pourquoi les groupes sont plus grands que k&#xa0;:</translation>
    </message>
    <message>
        <source>records</source>
        <translation>enregistrements</translation>
    </message>
    <message>
        <source>classes</source>
        <translation>classes</translation>
    </message>
    <message>
        <source>groups sharing their released QI values</source>
        <translation>groupes partageant les valeurs publiées de leurs quasi-identifiants</translation>
    </message>
    <message>
        <source>k achieved</source>
        <translation>k atteint</translation>
    </message>
    <message>
        <source>asked {k}</source>
        <translation>demandé {k}</translation>
    </message>
    <message>
        <source>t achieved</source>
        <translation>t atteint</translation>
    </message>
    <message>
        <source>asked {t}</source>
        <translation>demandé {t}</translation>
    </message>
    <message>
        <source>ε achieved</source>
        <translation>ε atteint</translation>
    </message>
    <message>
        <source>QI information loss</source>
        <translation>perte d&apos;information sur les quasi-identifiants</translation>
    </message>
    <message>
        <source>confidential loss</source>
        <translation>perte sur les confidentiels</translation>
    </message>
    <message>
        <source>{column}: values changed</source>
        <translation>{column}&#xa0;: valeurs modifiées</translation>
    </message>
    <message>
        <source>randomized response</source>
        <translation>réponse randomisée</translation>
    </message>
    <message>
        <source>time</source>
        <translation>durée</translation>
    </message>
    <message>
        <source>{name}: {value}</source>
        <translation>{name}&#xa0;: {value}</translation>
    </message>
</context>
<context>
    <name>PrivacyPage</name>
    <message>
        <source>on</source>
        <translation>activé</translation>
    </message>
    <message>
        <source>off</source>
        <translation>désactivé</translation>
    </message>
    <message>
        <source>3. Privacy level</source>
        <translation>3. Niveau de confidentialité</translation>
    </message>
    <message>
        <source>Choose how close each group&apos;s confidential values must stay to the whole file&apos;s (t, or ε of differential privacy) and the smallest group size k.</source>
        <translation>Choisissez à quel point les valeurs confidentielles de chaque groupe doivent rester proches de celles du fichier entier (t, ou ε de confidentialité différentielle) et la taille minimale des groupes k.</translation>
    </message>
    <message>
        <source>&amp;t (t-closeness)</source>
        <extracomment>plans received for the session&apos;s data, by parameters why the engine could not plan some parameters (a column it cannot use, …) plans the run off the GUI thread the parameters of the plan asked for last the privacy level as t and as ε (two views of the session&apos;s one level) every widget bound to its value of the session</extracomment>
        <translation>&amp;t (t-proximité)</translation>
    </message>
    <message>
        <source>&amp;ε (differential privacy)</source>
        <translation>&amp;ε (confidentialité différentielle)</translation>
    </message>
    <message>
        <source>Average in groups of k before adding noise (less noise)</source>
        <translation>Moyenne par groupes de k avant le bruit (moins de bruit)</translation>
    </message>
    <message>
        <source>e.g. income=0:250000</source>
        <translation>p. ex. revenu=0:250000</translation>
    </message>
    <message>
        <source>Estimate missing bounds privately, using</source>
        <translation>Estimer en privé les bornes manquantes, avec</translation>
    </message>
    <message>
        <source>Number of &amp;buckets:</source>
        <translation>Nombre de tra&amp;nches&#xa0;:</translation>
    </message>
    <message>
        <source>Details: guarantees, assumptions and sources</source>
        <translation>Détails&#xa0;: garanties, hypothèses et sources</translation>
    </message>
    <message>
        <source>Noise in proportion to each value (log scale)</source>
        <translation>Bruit proportionnel à la valeur (échelle log.)</translation>
    </message>
    <message>
        <source>Leave out the records whose confidential value is missing</source>
        <extracomment>the radio button and the note of each mechanism, by name</extracomment>
        <translation>Laisser de côté les enregistrements dont la valeur confidentielle manque</translation>
    </message>
    <message>
        <source>empty = fresh randomness (recommended)</source>
        <translation>vide = aléa neuf (recommandé)</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>non indiqué</translation>
    </message>
    <message>
        <source>public-use file (anyone)</source>
        <translation>fichier à usage public (tout le monde)</translation>
    </message>
    <message>
        <source>scientific-use file (registered researchers)</source>
        <translation>fichier à usage scientifique (chercheurs enregistrés)</translation>
    </message>
    <message>
        <source>licensed file (named users, an agreement)</source>
        <translation>fichier sous licence (utilisateurs nommés, un accord)</translation>
    </message>
    <message>
        <source>data enclave (a controlled environment)</source>
        <translation>enclave de données (un environnement contrôlé)</translation>
    </message>
    <message>
        <source>e.g. a neighbour who knows age, sex and region</source>
        <translation>p. ex. un voisin qui connaît l’âge, le sexe et la région</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <source>Privacy level:</source>
        <translation>Niveau de confidentialité&#xa0;:</translation>
    </message>
    <message>
        <source>Smallest group size &amp;k:</source>
        <translation>Taille minimale des groupes &amp;k&#xa0;:</translation>
    </message>
    <message>
        <source>Mechanism:</source>
        <translation>Mécanisme&#xa0;:</translation>
    </message>
    <message>
        <source>Public bounds:</source>
        <translation>Bornes publiques&#xa0;:</translation>
    </message>
    <message>
        <source>of ε</source>
        <translation>de ε</translation>
    </message>
    <message>
        <source>Public categories:</source>
        <translation>Catégories publiques&#xa0;:</translation>
    </message>
    <message>
        <source>Random seed:</source>
        <translation>Graine aléatoire&#xa0;:</translation>
    </message>
    <message>
        <source>Release type:</source>
        <translation>Type de diffusion&#xa0;:</translation>
    </message>
    <message>
        <source>Intruder scenario:</source>
        <translation>Scénario d’intrusion&#xa0;:</translation>
    </message>
    <message>
        <source>What this file allows</source>
        <translation>Ce que permet ce fichier</translation>
    </message>
    <message>
        <source>What k, t and ε mean</source>
        <translation>Ce que signifient k, t et ε</translation>
    </message>
    <message>
        <source>&lt;b&gt;k&lt;/b&gt;: records are grouped so that each released combination of quasi-identifier values (columns an intruder may already know, such as age or region) is shared by at least k people; nobody can be singled out by them.&lt;br&gt;&lt;br&gt;&lt;b&gt;t&lt;/b&gt;: the confidential values are grouped into buckets; inside every group each bucket&apos;s share stays between 1/t and t times its share in the whole file, so learning someone&apos;s group tells little about their confidential value.&lt;br&gt;&lt;br&gt;&lt;b&gt;ε&lt;/b&gt;: the same promise stated as differential privacy; smaller is more private.</source>
        <translation>&lt;b&gt;k&lt;/b&gt;&#xa0;: les enregistrements sont regroupés de sorte que chaque combinaison publiée de valeurs des quasi-identifiants (des colonnes qu&apos;un intrus peut déjà connaître, comme l&apos;âge ou la région) soit partagée par au moins k personnes&#xa0;; personne ne peut être isolé par elles.&lt;br&gt;&lt;br&gt;&lt;b&gt;t&lt;/b&gt;&#xa0;: les valeurs confidentielles sont regroupées en tranches&#xa0;; dans chaque groupe, la part de chaque tranche reste entre 1/t et t fois sa part dans le fichier entier&#xa0;: connaître le groupe d&apos;une personne en dit donc peu sur sa valeur confidentielle.&lt;br&gt;&lt;br&gt;&lt;b&gt;ε&lt;/b&gt;&#xa0;: la même promesse exprimée en confidentialité différentielle&#xa0;; plus il est petit, plus la protection est forte.</translation>
    </message>
    <message>
        <source>What the chosen parameters promise, in plain words</source>
        <translation>Ce que promettent les paramètres choisis, en termes simples</translation>
    </message>
    <message>
        <source>Guarantees, assumptions and sources</source>
        <translation>Garanties, hypothèses et sources</translation>
    </message>
    <message>
        <source>What the chosen parameters guarantee, under which assumption, and the paper that proves it</source>
        <translation>Ce que garantissent les paramètres choisis, sous quelle hypothèse, et l&apos;article qui le démontre</translation>
    </message>
    <message>
        <source>In plain words</source>
        <translation>En termes simples</translation>
    </message>
    <message>
        <source>Not changed: {reason}</source>
        <translation>Non modifié&#xa0;: {reason}</translation>
    </message>
    <message>
        <source>The plan could not be made; see the log.</source>
        <translation>Le plan n&apos;a pas pu être établi&#xa0;; consultez le journal.</translation>
    </message>
    <message>
        <source>Planning the release</source>
        <translation>Planification de la publication</translation>
    </message>
    <message>
        <source>Checking what this file allows…</source>
        <translation>Vérification de ce que permet ce fichier…</translation>
    </message>
    <message>
        <source>Next is disabled: {problem}</source>
        <translation>Suivant est désactivé&#xa0;: {problem}</translation>
    </message>
    <message>
        <source>Nearest settings that work:</source>
        <translation>Réglages les plus proches qui conviennent&#xa0;:</translation>
    </message>
    <message>
        <source>Only one class: {reason}</source>
        <translation>Une seule classe&#xa0;: {reason}</translation>
    </message>
    <message>
        <source>Why the groups will be larger than k: {reason}</source>
        <translation>Pourquoi les groupes seront plus grands que k&#xa0;: {reason}</translation>
    </message>
    <message>
        <source>t = {t} (ε = {epsilon}) and k = {k} can be met.</source>
        <translation>t = {t} (ε = {epsilon}) et k = {k} peuvent être respectés.</translation>
    </message>
    <message>
        <source>Every group will hold at least k = {k} records.</source>
        <translation>Chaque groupe comptera au moins k = {k} enregistrements.</translation>
    </message>
    <message>
        <source>The confidential values fall into {b} buckets (the smallest, {label}, holds {count} records).</source>
        <translation>Les valeurs confidentielles se répartissent en {b} tranches (la plus petite, {label}, compte {count} enregistrements).</translation>
    </message>
    <message>
        <source>{column}: randomized response; each value is kept with probability {keep}, otherwise replaced at random.</source>
        <translation>{column}&#xa0;: réponse randomisée&#xa0;; chaque valeur est conservée avec une probabilité de {keep}, sinon remplacée au hasard.</translation>
    </message>
    <message>
        <source>{column}: Laplace noise for ε = {epsilon}, about ±{error} per value on average.</source>
        <translation>{column}&#xa0;: bruit de Laplace pour ε = {epsilon}, environ ±{error} par valeur en moyenne.</translation>
    </message>
    <message>
        <source>{column}: Laplace noise for ε = {epsilon} on the log scale; half of the values stay within a factor {factor} of their true value.</source>
        <translation>{column}&#xa0;: bruit de Laplace pour ε = {epsilon} sur l&apos;échelle logarithmique&#xa0;; la moitié des valeurs restent à moins d&apos;un facteur {factor} de leur vraie valeur.</translation>
    </message>
    <message>
        <source>{column}: Laplace noise for ε = {epsilon}; the bounds are estimated privately when the release is made, so the error is known only then.</source>
        <translation>{column}&#xa0;: bruit de Laplace pour ε = {epsilon}&#xa0;; les bornes sont estimées de façon privée lors de la publication, l&apos;erreur n&apos;est donc connue qu&apos;à ce moment-là.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Every group will hold records of at least {k} of the {n} households; released alike for all members of a household: {level}.</source>
        <translation>Chaque groupe contiendra des enregistrements d&apos;au moins {k} des {n} ménages ; publiés à l&apos;identique pour tous les membres d&apos;un ménage : {level}.</translation>
    </message>
    <message>
        <source>Risk of the original records: {expected} expected re-identifications (largest risk {largest})</source>
        <translation>Risque des enregistrements d&apos;origine : {expected} réidentifications attendues (risque maximal {largest})</translation>
    </message>
    <message>
        <source>, household risk {risk} on average</source>
        <translation>, risque du ménage {risk} en moyenne</translation>
    </message>
    <message>
        <source>; after the release each record&apos;s risk is at most 1/k = {r}.</source>
        <translation> ; après la publication, le risque de chaque enregistrement est au plus 1/k = {r}.</translation>
    </message>
    <message>
        <source>Use these settings: {changes}</source>
        <translation>Utiliser ces réglages&#xa0;: {changes}</translation>
    </message>
    <message>
        <source>{field} from {old} to {new}</source>
        <translation>{field} de {old} à {new}</translation>
    </message>
    <message>
        <source>Changed: {changes}.</source>
        <translation>Modifié&#xa0;: {changes}.</translation>
    </message>
    <message>
        <source>The settings already were these.</source>
        <translation>Les réglages étaient déjà ceux-là.</translation>
    </message>
</context>
<context>
    <name>Progress</name>
    <message>
        <source>Writing the report</source>
        <translation>Écriture du rapport</translation>
    </message>
    <message>
        <source>Drawing the previews</source>
        <translation>Tracé des aperçus</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Terminé</translation>
    </message>
    <message>
        <source>Looking at the columns</source>
        <extracomment>(type guesses, role suggestions) of every column</extracomment>
        <translation>Examen des colonnes</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>Lu</translation>
    </message>
</context>
<context>
    <name>ProgressPanel</name>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Stop the running task; nothing is written (Esc)</source>
        <translation>Arrêter la tâche en cours&#xa0;; rien n&apos;est écrit (Échap)</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Annulation…</translation>
    </message>
</context>
<context>
    <name>Project</name>
    <message>
        <source>tclose project (*.json)</source>
        <translation>Projet tclose (*.json)</translation>
    </message>
    <message>
        <source>Open a data file before saving a project.</source>
        <translation>Ouvrez un fichier de données avant d&apos;enregistrer un projet.</translation>
    </message>
    <message>
        <source>Save project</source>
        <translation>Enregistrer le projet</translation>
    </message>
    <message>
        <source>Replace it anyway?</source>
        <translation>Le remplacer quand même&#xa0;?</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>Ouvrir un projet</translation>
    </message>
    <message>
        <source>Input file changed</source>
        <translation>Le fichier d&apos;entrée a changé</translation>
    </message>
    <message>
        <source>Use the changed file anyway?</source>
        <translation>Utiliser quand même le fichier modifié&#xa0;?</translation>
    </message>
    <message>
        <source>Input file not found</source>
        <translation>Fichier d&apos;entrée introuvable</translation>
    </message>
    <message>
        <source>Locate the file now?</source>
        <translation>Localiser le fichier maintenant&#xa0;?</translation>
    </message>
    <message>
        <source>Locate {name}</source>
        <translation>Localiser {name}</translation>
    </message>
</context>
<context>
    <name>RecodingBox</name>
    <message>
        <source>e.g. 15:25:45:65</source>
        <extracomment>a recoding changed (the tag page shows the column&apos;s type again)</extracomment>
        <translation>p. ex. 15:25:45:65</translation>
    </message>
    <message>
        <source>e.g. 90</source>
        <translation>p. ex. 90</translation>
    </message>
    <message>
        <source>e.g. 0</source>
        <translation>p. ex. 0</translation>
    </message>
    <message>
        <source>Choose a &amp;hierarchy file…</source>
        <translation>Choisir un fichier de &amp;hiérarchie…</translation>
    </message>
    <message>
        <source>A CSV file or a workbook whose columns are the levels, the finest first (commune, district, province), one row per finest value</source>
        <translation>Un fichier CSV ou un classeur dont les colonnes sont les niveaux, le plus fin d’abord (commune, district, province), une ligne par valeur du niveau le plus fin</translation>
    </message>
    <message>
        <source>Remove the hierarchy</source>
        <translation>Retirer la hiérarchie</translation>
    </message>
    <message>
        <source>Bands (cut points):</source>
        <translation>Tranches (seuils)&#xa0;:</translation>
    </message>
    <message>
        <source>Top code:</source>
        <translation>Code plafond&#xa0;:</translation>
    </message>
    <message>
        <source>Bottom code:</source>
        <translation>Code plancher&#xa0;:</translation>
    </message>
    <message>
        <source>Hierarchy:</source>
        <translation>Hiérarchie&#xa0;:</translation>
    </message>
    <message>
        <source>Recoding of {column} before the grouping</source>
        <translation>Recodage de {column} avant le regroupement</translation>
    </message>
    <message>
        <source>Recoding before the grouping (select a column)</source>
        <translation>Recodage avant le regroupement (sélectionnez une colonne)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucune</translation>
    </message>
    <message>
        <source>{levels} ({n} values at the finest level)</source>
        <translation>{levels} ({n} valeurs au niveau le plus fin)</translation>
    </message>
    <message>
        <source>Choose a hierarchy file</source>
        <translation>Choisir un fichier de hiérarchie</translation>
    </message>
    <message>
        <source>Tables ({patterns})</source>
        <translation>Tables ({patterns})</translation>
    </message>
</context>
<context>
    <name>Roles</name>
    <message>
        <source>not released</source>
        <extracomment>share of distinct values above which a column may be an identifier fewest values for that share to mean anything</extracomment>
        <translation>non publiée</translation>
    </message>
    <message>
        <source>identifier</source>
        <translation>identifiant</translation>
    </message>
    <message>
        <source>quasi-identifier</source>
        <translation>quasi-identifiant</translation>
    </message>
    <message>
        <source>confidential</source>
        <translation>confidentielle</translation>
    </message>
    <message>
        <source>other (released unchanged)</source>
        <translation>autre (publiée telle quelle)</translation>
    </message>
    <message>
        <source>household</source>
        <translation>ménage</translation>
    </message>
    <message>
        <source>sampling weight</source>
        <translation>poids de sondage</translation>
    </message>
    <message>
        <source>Left out of the release (the safe default for a column you do not need).</source>
        <translation>Exclue de la publication (le choix sûr pour une colonne dont vous n&apos;avez pas besoin).</translation>
    </message>
    <message>
        <source>Names a person directly (name, ID number, e-mail); never released.</source>
        <translation>Désigne directement une personne (nom, numéro d&apos;identification, courriel)&#xa0;; jamais publiée.</translation>
    </message>
    <message>
        <source>Quasi-identifier: not an identifier by itself, but an intruder may know it and link it to a person (age, sex, region). Released only after grouping records into classes of at least k.</source>
        <translation>Quasi-identifiant&#xa0;: n&apos;identifie pas à lui seul, mais un intrus peut le connaître et le relier à une personne (âge, sexe, région). Publié seulement après regroupement des enregistrements en classes d&apos;au moins k.</translation>
    </message>
    <message>
        <source>The sensitive value to protect (income, diagnosis); released only in protected form.</source>
        <translation>La valeur sensible à protéger (revenu, diagnostic)&#xa0;; publiée seulement sous forme protégée.</translation>
    </message>
    <message>
        <source>Released exactly as it is; only for columns that cannot identify anyone.</source>
        <translation>Publiée telle quelle&#xa0;; seulement pour les colonnes qui ne peuvent identifier personne.</translation>
    </message>
    <message>
        <source>The household a person belongs to: every class holds at least k households, household-level values are released alike for all members, the id is re-coded.</source>
        <translation>Le ménage auquel appartient une personne : chaque classe réunit au moins k ménages, les valeurs du ménage sont publiées à l&apos;identique pour tous ses membres et l&apos;identifiant est recodé.</translation>
    </message>
    <message>
        <source>How many people of the population the record stands for (a number &gt; 0): used for the risk and weighted totals; released unchanged.</source>
        <translation>Le nombre de personnes de la population que représente l&apos;enregistrement (un nombre &gt; 0) : sert au risque et aux totaux pondérés ; publié tel quel.</translation>
    </message>
    <message>
        <source>{distinct} of {n} values are distinct ({share}) and the name is an identifier&apos;s: this is probably an identifier.</source>
        <extracomment>the suggested role (None: no suggestion) values that are not missing, and how many of them are distinct near-unique whole numbers or texts: an identifier, whatever its name the name is one identifiers go by (id, code, name, e-mail …) what the engine&apos;s identifier rule reads (a quasi-identifier that is an identifier in disguise is refused: :func:`engine.identifiers.identifier_reason`)</extracomment>
        <translation>{distinct} valeurs sur {n} sont distinctes ({share}) et le nom est celui d&apos;un identifiant&#xa0;: c&apos;est probablement un identifiant.</translation>
    </message>
</context>
<context>
    <name>RolesModel</name>
    <message>
        <source>Column</source>
        <translation>Colonne</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rôle</translation>
    </message>
    <message>
        <source>Missing-value codes</source>
        <translation>Codes de valeur manquante</translation>
    </message>
    <message>
        <source>Distinct</source>
        <translation>Distinctes</translation>
    </message>
    <message>
        <source>Empty</source>
        <translation>Vides</translation>
    </message>
    <message>
        <source>Why / note</source>
        <translation>Raison / remarque</translation>
    </message>
    <message>
        <source>The column&apos;s name in the file</source>
        <translation>Le nom de la colonne dans le fichier</translation>
    </message>
    <message>
        <source>How values compare: numeric, ordinal (ordered categories), nominal (categories), date</source>
        <translation>Comment les valeurs se comparent&#xa0;: numérique, ordinal (catégories ordonnées), nominal (catégories), date</translation>
    </message>
    <message>
        <source>What the column is for; only quasi-identifiers, confidential and &apos;other&apos; are released</source>
        <translation>À quoi sert la colonne&#xa0;; seuls les quasi-identifiants, les confidentielles et les «&#xa0;autres&#xa0;» sont publiés</translation>
    </message>
    <message>
        <source>Values that mean &apos;missing&apos; in this column, separated by commas (e.g. -1, 99, N/A)</source>
        <translation>Valeurs qui signifient «&#xa0;manquant&#xa0;» dans cette colonne, séparées par des virgules (p. ex. -1, 99, N/A)</translation>
    </message>
    <message>
        <source>How many different values the column has</source>
        <translation>Combien de valeurs différentes la colonne contient</translation>
    </message>
    <message>
        <source>The share of empty cells, once the missing-value codes are declared</source>
        <translation>La part des cellules vides, une fois déclarés les codes de valeur manquante</translation>
    </message>
    <message>
        <source>Why a role or type was suggested</source>
        <translation>Pourquoi un rôle ou un type a été suggéré</translation>
    </message>
    <message>
        <source>numeric</source>
        <translation>numérique</translation>
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
        <translation>date</translation>
    </message>
    <message>
        <source>numbers; compared by size</source>
        <translation>nombres&#xa0;; comparés par leur grandeur</translation>
    </message>
    <message>
        <source>ordered categories (e.g. education level); compared by rank</source>
        <translation>catégories ordonnées (p. ex. niveau d&apos;études)&#xa0;; comparées par leur rang</translation>
    </message>
    <message>
        <source>unordered categories (e.g. region); equal or not</source>
        <translation>catégories sans ordre (p. ex. région)&#xa0;; égales ou non</translation>
    </message>
    <message>
        <source>dates; compared as numbers of days</source>
        <translation>dates&#xa0;; comparées en nombre de jours</translation>
    </message>
    <message>
        <source>Looks like an identifier: as a quasi-identifier it singles people out.</source>
        <extracomment>names listed in the summary line per role before &quot;and N more&quot; rows the Type/Role/… columns are sized by (a file may have 10,000 columns) records the household-level QIs are looked for in on this page (fast on any file) the column names in order, for the session&apos;s columns dict ``_of`` (a new file brings a new dict)</extracomment>
        <translation>Ressemble à un identifiant&#xa0;: comme quasi-identifiant, il distingue les personnes.</translation>
    </message>
    <message>
        <source>{empty} of {rows} cells are empty ({share})</source>
        <translation>{empty} cellules sur {rows} sont vides ({share})</translation>
    </message>
    <message>
        <source>{type}: {help} (guessed: {note})</source>
        <translation>{type}&#xa0;: {help} (déduit&#xa0;: {note})</translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <source>Write bounds as COLUMN=LOW:HIGH, e.g. income=0:250000 ({part}).</source>
        <extracomment>the parameters a new session starts from (k-anonymity with t-closeness, t = 2, k = 5) the type guessed from the values (after the missing codes) what the values and the name suggest about the role where one column&apos;s bounds end and the next begin: a semicolon, a new line, or a comma that comes before the next &quot;COLUMN=&quot; (a comma between digits is a decimal comma)</extracomment>
        <translation>Écrivez les bornes sous la forme COLONNE=MIN:MAX, p. ex. revenu=0:250000 ({part}).</translation>
    </message>
    <message>
        <source>Open a file first.</source>
        <extracomment>the table as read (missing codes not yet applied) the last preview (its parameters are ``release.params``) files written by the last export called after every change of :attr:`params`, with the session (the pages&apos; bindings: a widget shows what the session holds whichever page or dialog changed it)</extracomment>
        <translation>Ouvrez d&apos;abord un fichier.</translation>
    </message>
    <message>
        <source>Tag at least one column as quasi-identifier.</source>
        <translation>Attribuez le rôle de quasi-identifiant à au moins une colonne.</translation>
    </message>
    <message>
        <source>Tag at least one column as confidential.</source>
        <translation>Attribuez le rôle de confidentielle à au moins une colonne.</translation>
    </message>
    <message>
        <source>The project names columns the file lacks: {names}.</source>
        <translation>Le projet nomme des colonnes absentes du fichier&#xa0;: {names}.</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>Recent files</source>
        <extracomment>the version of the stored settings&apos; layout (1: the settings declared here) where the version is stored the key in QSettings what it is, for people (marked for translation in the context &quot;Settings&quot;) the value as stored → the value (ValueError when it is not one) the languages the app ships: the engine&apos;s one declared list</extracomment>
        <translation>Fichiers récents</translation>
    </message>
    <message>
        <source>The files opened last, newest first (File › Open recent).</source>
        <translation>Les derniers fichiers ouverts, le plus récent d’abord (Fichier › Ouvrir un fichier récent).</translation>
    </message>
    <message>
        <source>Last folder</source>
        <translation>Dernier dossier</translation>
    </message>
    <message>
        <source>Where File › Open starts: the folder of the last file.</source>
        <translation>Où commence Fichier › Ouvrir&#xa0;: le dossier du dernier fichier.</translation>
    </message>
    <message>
        <source>Export folder</source>
        <translation>Dossier d’export</translation>
    </message>
    <message>
        <source>Where a release is saved by default: the last export&apos;s.</source>
        <translation>Où une publication est enregistrée par défaut&#xa0;: là où l’a été la dernière.</translation>
    </message>
    <message>
        <source>Window size and place</source>
        <translation>Taille et position de la fenêtre</translation>
    </message>
    <message>
        <source>The main window as it was left.</source>
        <translation>La fenêtre principale telle qu’elle a été laissée.</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>The language of the app (empty: the system&apos;s).</source>
        <translation>La langue de l’application (vide&#xa0;: celle du système).</translation>
    </message>
    <message>
        <source>Colours</source>
        <translation>Couleurs</translation>
    </message>
    <message>
        <source>Light or dark (empty: as the system).</source>
        <translation>Clair ou sombre (vide&#xa0;: comme le système).</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <source>Automatic (the system&apos;s language)</source>
        <translation>Automatique (la langue du système)</translation>
    </message>
    <message>
        <source>The language of the app; messages from the engine stay in English</source>
        <translation>La langue de l&apos;application&#xa0;; les messages du moteur restent en anglais</translation>
    </message>
    <message>
        <source>Automatic (as the system)</source>
        <translation>Automatique (comme le système)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Clair</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Sombre</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Langue&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Colours:</source>
        <translation>&amp;Couleurs&#xa0;:</translation>
    </message>
    <message>
        <source>Changes take effect the next time tclose starts.</source>
        <translation>Les modifications prennent effet au prochain démarrage de tclose.</translation>
    </message>
</context>
<context>
    <name>SweepDialog</name>
    <message>
        <source>feasible</source>
        <translation>réalisable</translation>
    </message>
    <message>
        <source>QI loss</source>
        <translation>perte sur les quasi-identifiants</translation>
    </message>
    <message>
        <source>confidential loss</source>
        <translation>perte sur les confidentiels</translation>
    </message>
    <message>
        <source>achieved t</source>
        <translation>t atteint</translation>
    </message>
    <message>
        <source>classes</source>
        <translation>classes</translation>
    </message>
    <message>
        <source>note</source>
        <translation>remarque</translation>
    </message>
    <message>
        <source>{what}: type numbers separated by commas, e.g. 2, 3, 5.</source>
        <translation>{what}&#xa0;: saisissez des nombres séparés par des virgules, p. ex. 2, 3, 5.</translation>
    </message>
    <message>
        <source>{what}: type at least one number.</source>
        <translation>{what}&#xa0;: saisissez au moins un nombre.</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>oui</translation>
    </message>
    <message>
        <source>no</source>
        <translation>non</translation>
    </message>
    <message>
        <source>Privacy–utility sweep</source>
        <extracomment>(&quot;t&quot; or &quot;epsilon&quot;, value, k) of the point the user chose a point of the running sweep is done (its row; emitted from the worker thread)</extracomment>
        <translation>Balayage confidentialité–utilité</translation>
    </message>
    <message>
        <source>The {symbol} values to try, separated by commas</source>
        <extracomment>the rows of the running sweep done so far, and how many points it has</extracomment>
        <translation>Les valeurs de {symbol} à essayer, séparées par des virgules</translation>
    </message>
    <message>
        <source>The k values to try (one curve each), separated by commas</source>
        <translation>Les valeurs de k à essayer (une courbe chacune), séparées par des virgules</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>Lancer le balayage</translation>
    </message>
    <message>
        <source>{symbol} values:</source>
        <translation>Valeurs de {symbol}&#xa0;:</translation>
    </message>
    <message>
        <source>k values:</source>
        <translation>Valeurs de k&#xa0;:</translation>
    </message>
    <message>
        <source>Every point is a full anonymization run, so a large grid on a large file takes a while. Lower curves lose less information; points further left protect more. Click a point in the plot or a row in the table, then “Use this point”.</source>
        <translation>Chaque point est une anonymisation complète&#xa0;: une grande grille sur un grand fichier prend donc un certain temps. Les courbes les plus basses perdent moins d&apos;information&#xa0;; les points les plus à gauche protègent davantage. Cliquez sur un point du graphique ou sur une ligne du tableau, puis sur «&#xa0;Utiliser ce point&#xa0;».</translation>
    </message>
    <message>
        <source>Run the sweep to see the curves.</source>
        <translation>Lancez le balayage pour voir les courbes.</translation>
    </message>
    <message>
        <source>Points of the sweep</source>
        <translation>Points du balayage</translation>
    </message>
    <message>
        <source>Use this point</source>
        <translation>Utiliser ce point</translation>
    </message>
    <message>
        <source>{symbol} values</source>
        <translation>valeurs de {symbol}</translation>
    </message>
    <message>
        <source>k values</source>
        <translation>valeurs de k</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Balayage</translation>
    </message>
    <message>
        <source>{done} of {points} points done…</source>
        <translation>{done} points sur {points} faits…</translation>
    </message>
    <message>
        <source>Sweep cancelled after {done} of {points} points; those are shown.</source>
        <translation>Balayage annulé après {done} points sur {points}&#xa0;; ceux-ci sont affichés.</translation>
    </message>
    <message>
        <source>Sweep cancelled.</source>
        <translation>Balayage annulé.</translation>
    </message>
    <message>
        <source>{points} points, {bad} infeasible (crosses on the axis).</source>
        <translation>{points} points, dont {bad} irréalisables (croix sur l&apos;axe).</translation>
    </message>
    <message>
        <source>{points} points, all feasible.</source>
        <translation>{points} points, tous réalisables.</translation>
    </message>
    <message>
        <source>a point with more privacy loses less</source>
        <translation>un point plus protecteur perd moins</translation>
    </message>
    <message>
        <source>Chosen: {symbol} = {value}, k = {k} (loss {loss}).</source>
        <translation>Choisi&#xa0;: {symbol} = {value}, k = {k} (perte {loss}).</translation>
    </message>
    <message>
        <source>Infeasible: {message}</source>
        <translation>Irréalisable&#xa0;: {message}</translation>
    </message>
</context>
<context>
    <name>TagPage</name>
    <message>
        <source>2. Tag the columns</source>
        <translation>2. Attribuer un rôle aux colonnes</translation>
    </message>
    <message>
        <source>Give every column a role. A quasi-identifier is a column an intruder may already know about a person (age, sex, region); a confidential column is the sensitive value to protect. Columns left &apos;not released&apos; are dropped.</source>
        <translation>Attribuez un rôle à chaque colonne. Un quasi-identifiant est une colonne qu&apos;un intrus peut déjà connaître sur une personne (âge, sexe, région)&#xa0;; une colonne confidentielle est la valeur sensible à protéger. Les colonnes laissées «&#xa0;non publiée&#xa0;» sont écartées.</translation>
    </message>
    <message>
        <source>Columns and their roles</source>
        <extracomment>why a code or name typed was not taken</extracomment>
        <translation>Colonnes et leurs rôles</translation>
    </message>
    <message>
        <source>Click a Type, Role or Missing-value cell (or press F2) to change it; the arrow keys move between cells, Tab leaves the table.</source>
        <translation>Cliquez sur une cellule Type, Rôle ou Codes de valeur manquante (ou appuyez sur F2) pour la modifier&#xa0;; les flèches passent d&apos;une cellule à l&apos;autre, Tab quitte le tableau.</translation>
    </message>
    <message>
        <source>e.g. -1, 99, N/A, unknown</source>
        <translation>p. ex. -1, 99, N/A, inconnu</translation>
    </message>
    <message>
        <source>Codes that mean &apos;missing&apos; in every column, separated by commas; cells holding them are treated as missing values</source>
        <translation>Codes qui signifient «&#xa0;manquant&#xa0;» dans toutes les colonnes, séparés par des virgules&#xa0;; les cellules qui les contiennent sont traitées comme des valeurs manquantes</translation>
    </message>
    <message>
        <source>e.g. dwelling, district</source>
        <translation>p. ex. logement, district</translation>
    </message>
    <message>
        <source>Household-level quasi-identifiers</source>
        <translation>Quasi-identifiants du ménage</translation>
    </message>
    <message>
        <source>Quasi-identifiers to release alike for every member of a household, besides those found constant within every household; separated by commas</source>
        <translation>Quasi-identifiants à publier à l&apos;identique pour tous les membres d&apos;un ménage, en plus de ceux constants dans chaque ménage ; séparés par des virgules</translation>
    </message>
    <message>
        <source>Missing-value codes (all columns):</source>
        <translation>Codes de valeur manquante (toutes les colonnes)&#xa0;:</translation>
    </message>
    <message>
        <source>Also household-level:</source>
        <translation>Aussi du ménage :</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>{households} households. &lt;b&gt;Household-level&lt;/b&gt; (the same for every member, released alike for all of them): {level}.</source>
        <translation>{households} ménages. &lt;b&gt;Du ménage&lt;/b&gt; (identiques pour tous les membres, publiés à l&apos;identique pour tous) : {level}.</translation>
    </message>
    <message>
        <source>{name} ({share} of households)</source>
        <translation>{name} ({share} des ménages)</translation>
    </message>
    <message>
        <source>Nearly household-level: {names}; name them under &apos;Also household-level&apos; to release them alike.</source>
        <translation>Presque du ménage : {names} ; indiquez-les sous « Aussi du ménage » pour les publier à l&apos;identique.</translation>
    </message>
    <message>
        <source>and {n} more</source>
        <translation>et {n} de plus</translation>
    </message>
    <message>
        <source>Next is disabled: {problem}</source>
        <translation>Suivant est désactivé&#xa0;: {problem}</translation>
    </message>
    <message>
        <source>quasi-identifiers</source>
        <translation>quasi-identifiants</translation>
    </message>
    <message>
        <source>confidential</source>
        <translation>confidentielles</translation>
    </message>
    <message>
        <source>identifiers (dropped)</source>
        <translation>identifiants (écartés)</translation>
    </message>
    <message>
        <source>released unchanged</source>
        <translation>publiées telles quelles</translation>
    </message>
    <message>
        <source>household (released re-coded)</source>
        <translation>ménage (publié recodé)</translation>
    </message>
    <message>
        <source>sampling weight</source>
        <translation>poids de sondage</translation>
    </message>
    <message>
        <source>No column tagged yet.</source>
        <translation>Aucune colonne n&apos;a encore de rôle.</translation>
    </message>
    <message>
        <source>{names}: nearly every value is different, as in an identifier. As a quasi-identifier such a column singles people out and the groups must blur it almost entirely; if it names a person, tag it identifier.</source>
        <translation>{names}&#xa0;: presque toutes les valeurs sont différentes, comme dans un identifiant. En quasi-identifiant, une telle colonne isole les personnes et les groupes doivent la brouiller presque entièrement&#xa0;; si elle désigne une personne, donnez-lui le rôle d&apos;identifiant.</translation>
    </message>
</context>
<context>
    <name>TcloseWizard</name>
    <message>
        <source>&amp;Close</source>
        <extracomment>the user guide&apos;s section of each page (the slug of its heading in docs/user-guide.md) files opened as a tclose project rather than as data</extracomment>
        <translation>&amp;Fermer</translation>
    </message>
    <message>
        <source>Go to the next step (Alt+N)</source>
        <translation>Passer à l&apos;étape suivante (Alt+N)</translation>
    </message>
    <message>
        <source>Go back one step (Alt+B)</source>
        <translation>Revenir à l&apos;étape précédente (Alt+B)</translation>
    </message>
</context>
<context>
    <name>formats</name>
    <message>
        <source>CSV text</source>
        <extracomment>the function that reads it (&quot;module:function&quot;; module doc) the function that writes a release in it (&quot;module:function&quot;; &quot;&quot; = not written) the bytes a file of this format starts with (its content decides before its name) when a file&apos;s first bytes match several formats, the highest priority reads it the first bytes (what the format was recognised by) what the import found and guessed, filled in by the reader bytes the reader may use instead of the measured free memory (None: measure) the staged file (renamed onto the target when every output is written) the suffix the release is named with (&quot;.sav&quot; or &quot;.zsav&quot; for one writer) the published metadata (``RunSummary.public_dict()``), with the software and time the release&apos;s labels (:class:`engine.io.codebook.Codebook`) separator, decimal mark and byte-order mark of a text release a new scratch file beside the target (a workbook spools its sheets there)</extracomment>
        <translation>Texte CSV</translation>
    </message>
    <message>
        <source>Tab-separated text</source>
        <translation>Texte séparé par des tabulations</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Texte</translation>
    </message>
    <message>
        <source>Excel workbook</source>
        <translation>Classeur Excel</translation>
    </message>
    <message>
        <source>Excel workbook with macros</source>
        <translation>Classeur Excel avec macros</translation>
    </message>
    <message>
        <source>Excel 97–2003 workbook</source>
        <translation>Classeur Excel 97–2003</translation>
    </message>
    <message>
        <source>OpenDocument spreadsheet</source>
        <translation>Feuille de calcul OpenDocument</translation>
    </message>
    <message>
        <source>Parquet</source>
        <translation>Parquet</translation>
    </message>
    <message>
        <source>SPSS data</source>
        <translation>Données SPSS</translation>
    </message>
    <message>
        <source>SPSS compressed data</source>
        <translation>Données SPSS compressées</translation>
    </message>
    <message>
        <source>Stata data</source>
        <translation>Données Stata</translation>
    </message>
</context>
<context>
    <name>mechanisms</name>
    <message>
        <source>Bu&amp;ckets: t-closeness by grouping</source>
        <translation>Tranc&amp;hes&#xa0;: t-proximité par regroupement</translation>
    </message>
    <message>
        <source>exact guarantee, checked on the released file (default)</source>
        <translation>garantie exacte, contrôlée sur le fichier publié (par défaut)</translation>
    </message>
    <message>
        <source>The confidential values are grouped into buckets and each group keeps every bucket close to its share in the whole file (t-closeness)</source>
        <translation>Les valeurs confidentielles sont regroupées en tranches et chaque groupe garde chaque tranche proche de sa part dans le fichier entier (t-proximité)</translation>
    </message>
    <message>
        <source>N&amp;oise: ε-differential privacy</source>
        <extracomment>the smallest ε of a noise mechanism: the noise is drawn on an integer lattice whose scale grows as 1/ε, and below this the released values are pure noise millions of times wider than the bounds anyway</extracomment>
        <translation>B&amp;ruit&#xa0;: ε-confidentialité différentielle</translation>
    </message>
    <message>
        <source>Laplace on numbers, randomized response on categories</source>
        <translation>Laplace sur les nombres, réponse randomisée sur les catégories</translation>
    </message>
    <message>
        <source>Each confidential value is released with random noise (ε-differential privacy): Laplace noise on numbers, randomized response on categories</source>
        <translation>Chaque valeur confidentielle est publiée avec un bruit aléatoire (ε-confidentialité différentielle)&#xa0;: bruit de Laplace sur les nombres, réponse randomisée sur les catégories</translation>
    </message>
</context>
<context>
    <name>params</name>
    <message>
        <source>quasi-identifiers</source>
        <extracomment>the name of a registered mechanism (:data:`engine.mechanisms.MECHANISMS`) who may obtain the release (the SDC guidance&apos;s release types, IHSN SDC practice guide) the longest intruder scenario (a short text; the DDI and the About sheet quote it) the largest ε accepted: t = exp(ε/2) and e^ε must stay finite numbers (e^700 ≈ 1e304) the largest size of a number tclose computes with (public bounds, protected values): sums of squares over millions of records must stay finite (1e150² · 1e9 ≪ 1.8e308) the largest seed (numpy&apos;s generators take any integer in [0, 2^64)) a flag&apos;s text can say it: a value of the form the flag reads (a number, a word, a list of names, COLUMN=VALUE pairs); False for a value only a project file or the app can hold (a number where a list is wanted, a blank text a flag reads as &quot;none&quot;) the allowed values in English, marked with ``N_`` (:attr:`allowed` translates it) whether the ends themselves are allowed what the texts are, in English marked with ``N_`` (translated in messages) column names must be non-empty and unique; codes may be anything values one column&apos;s ``value`` refuses (its invalid values, declared beside it) what separates the categories of one column in a text: ``cold|flu|HIV`` the field&apos;s name for people (&quot;smallest group size k&quot;) one or two sentences: what it does and which way is more private the unit of the value as shown (&quot;records&quot;, &quot;%&quot;); &quot;&quot; when it has none the symbol the field is known by in formulas (&quot;k&quot;, &quot;t&quot;, &quot;ε&quot;); &quot;&quot; when none decimals a value is offered with when the app computes it (t from ε) or steps it; a value as given is always kept and shown exactly, never rounded to these how much one step (arrow key, spin button) changes the value the app shows value × scale (100: a share shown in percent) the help groups of the command line&apos;s release flags, in the order ``--help`` lists them (the command line&apos;s words only: marked for the engine&apos;s catalogues, not the app&apos;s) the help group it is listed in (a key of :data:`FLAG_GROUPS`); &quot;&quot; = no flag of its own the flag, when it is not ``--`` + the field&apos;s name with dashes the placeholder of its value in ``--help`` (&quot;COL,…&quot;); &quot;&quot; for an on/off flag how the flag&apos;s text becomes the value: &quot;value&quot; (one value, read by :meth:`ReleaseParams.parse`), &quot;columns&quot; (names separated by commas), &quot;codes&quot; (codes separated by commas, kept as written), &quot;switch&quot; (on when given), &quot;off&quot; (a True field the flag turns off), &quot;pairs&quot; (COLUMN=VALUE, the flag repeated per column), &quot;bounds&quot; (COLUMN=LO:HI per column, or private[=SHARE], which sets ``private_bounds``), &quot;categories&quot; (COLUMN=CAT|CAT|… per column, :func:`split_categories`) or &quot;files&quot; (COLUMN=FILE per column: a table read from FILE, a CSV or a workbook) the words each COLUMN=VALUE of a &quot;pairs&quot; flag takes ``tclose sweep`` takes a list of values, one axis of its grid: an example of one the flag must be given flags of the same name here exclude each other (t and ε) the field is given with another field&apos;s flag (its name) why the field has no flag (project files and the app only) the numeric range, from the constraint (None: unbounded on that side) whether ``low`` and ``high`` themselves are allowed None is a value of the field (&quot;auto&quot; or &quot;none&quot;) None means &quot;the engine chooses&quot; (shown as &quot;automatic&quot;) ``other`` columns released unchanged (only these; every unnamed column is dropped) released columns (quasi-identifiers, kept ones) that the identifier rule (:mod:`engine.identifiers`) takes for identifiers and that are released all the same, because the user says they are not; the run&apos;s review record names them the household id of every person (any type): every class then holds records of at least k households, household-level QIs are released alike for all members, and the id is released re-coded (``household_output``) the sampling weight of every record (numeric, &gt; 0): used for the risk estimates and the weighted bucket means, released as ``weight_output`` says QIs declared household-level (released alike for every member of a household) on top of those found constant within every household the household id in the release: &quot;recode&quot; (a fresh random numbering per release, so that members can be grouped and no id links back) or &quot;none&quot; (left out) the weight in the release: &quot;class&quot; (every record carries its class&apos;s mean weight, so the weight never splits a class and each class&apos;s sum of weights is kept), &quot;keep&quot; (unchanged: a key like any QI, since weights reveal the sampling stratum) or &quot;none&quot; (left out) type overrides; columns not named here have their type inferred category order of ordinal columns (lowest first); inferred when absent missing-value codes for every column (compared as text and, where numeric, as numbers) missing-value codes for single columns, added to ``missing`` records with a missing confidential value: &quot;bucket&quot; releases them in a bucket of their own (released empty), which every class must then hold; &quot;drop&quot; leaves them out of the release (the plan, the summary and the report state how many) smallest class size number of confidential buckets b; None (&quot;auto&quot;) = searched with the class size for the least combined loss (:func:`engine.release.plan.plan`, ``utility_weight``) how the search of b weighs the confidential loss against the QI loss: it minimises w · confidential SSE/SST + (1 − w) · QI SSE/SST (0 = only the QIs count, 1 = only the confidential values; 0.5: both alike, which gave the analyses the least error) several confidential columns form one joint bucket (KBS 2015 §4); False = per column public bounds (lo, hi) of numeric confidential columns, known without the data: the noise mechanism clamps to them; the buckets mechanism ends its outer labels at them noise mechanism: the share of each column&apos;s ε spent on estimating the bounds of a numeric confidential column that has no public bounds (DP quantiles); None = every such column needs public bounds public categories of nominal (or ordinal, lowest first) confidential columns, known without the data: the noise mechanism&apos;s randomized response draws from them, and a value outside them is released as one of them drawn at random; the categories seen in the data are never used (one person&apos;s rare category would show in the release) noise mechanism: aggregate confidential values in insensitive groups of k first noise mechanism: redraw until the release is also t-close on the buckets noise mechanism, numeric columns: &quot;log&quot; adds the noise to log(1 + value) and releases the result back on the column&apos;s scale, so that the error grows with the value (for positive, skewed columns such as incomes); the bounds must then be ≥ 0 a bucket&apos;s released value: the mean of the whole bucket (&quot;mean&quot;, which keeps totals; the median where one or two records dominate the bucket&apos;s sum), its &quot;median&quot;, or its &quot;label&quot; (the interval or category set); &quot;representative&quot; is read as &quot;median&quot; None = fresh OS entropy (not reproducible); a number makes the run reproducible who may obtain the release: &quot;public&quot; (a public-use file), &quot;scientific&quot; (registered researchers), &quot;licensed&quot; (named users under an agreement) or &quot;enclave&quot; (used only in a controlled environment); None = not stated; the plan compares k with the guidance for a stated type the intruder scenario the release is protected against, in the agency&apos;s words (what an intruder is assumed to know and do); published with the release per nominal quasi-identifier, its classification from the finest level to the coarsest (a table, header first: engine.recoding.Hierarchy); classes are formed with its distance and release their members&apos; lowest common level per numeric quasi-identifier, public cut points: its values are released as bands per numeric column, a public top code: larger values are replaced by it per numeric column, a public bottom code: smaller values are replaced by it one declared constraint per field (checked in declaration order) one :class:`FieldInfo` per field, in the order of :attr:`CONSTRAINTS`</extracomment>
        <translation>quasi-identifiants</translation>
    </message>
    <message>
        <source>Columns an intruder may know and link to a person (age, sex, region); released only after grouping the records into classes of at least k.</source>
        <translation>Colonnes qu&apos;un intrus peut connaître et relier à une personne (âge, sexe, région)&#xa0;; publiées seulement après regroupement des enregistrements en classes d&apos;au moins k.</translation>
    </message>
    <message>
        <source>confidential columns</source>
        <translation>colonnes confidentielles</translation>
    </message>
    <message>
        <source>The sensitive values to protect (income, diagnosis); released only in protected form.</source>
        <translation>Les valeurs sensibles à protéger (revenu, diagnostic)&#xa0;; publiées seulement sous forme protégée.</translation>
    </message>
    <message>
        <source>identifiers</source>
        <translation>identifiants</translation>
    </message>
    <message>
        <source>Columns that name a person directly (name, ID number); never released.</source>
        <translation>Colonnes qui désignent directement une personne (nom, numéro d&apos;identité)&#xa0;; jamais publiées.</translation>
    </message>
    <message>
        <source>columns released unchanged</source>
        <translation>colonnes publiées telles quelles</translation>
    </message>
    <message>
        <source>Columns released exactly as they are; a column named nowhere is left out.</source>
        <translation>Colonnes publiées exactement telles quelles&#xa0;; une colonne nommée nulle part est laissée de côté.</translation>
    </message>
    <message>
        <source>columns released although they look like identifiers</source>
        <translation>colonnes publiées bien qu’elles ressemblent à des identifiants</translation>
    </message>
    <message>
        <source>Quasi-identifiers or kept columns that hold nearly one value per record (or per household) and would be refused as identifiers in disguise; released all the same because you know they are not identifiers. The review record names them.</source>
        <translation>Quasi-identifiants ou colonnes conservées qui ont presque une valeur par enregistrement (ou par ménage) et seraient refusés comme identifiants déguisés ; publiés malgré tout parce que vous savez que ce ne sont pas des identifiants. Le dossier de revue les nomme.</translation>
    </message>
    <message>
        <source>household column</source>
        <translation>colonne du ménage</translation>
    </message>
    <message>
        <source>The household each person belongs to: every class then holds records of at least k households, and household-level values are released alike for all members.</source>
        <translation>Le ménage auquel appartient chaque personne&#xa0;: chaque classe contient alors des enregistrements d&apos;au moins k ménages, et les valeurs du ménage sont publiées à l&apos;identique pour tous ses membres.</translation>
    </message>
    <message>
        <source>sampling weight column</source>
        <translation>colonne du poids de sondage</translation>
    </message>
    <message>
        <source>How many people of the population each record stands for (a number above 0): used for the risk estimates and the weighted bucket means.</source>
        <translation>Combien de personnes de la population chaque enregistrement représente (un nombre supérieur à 0)&#xa0;: sert aux estimations du risque et aux moyennes pondérées des tranches.</translation>
    </message>
    <message>
        <source>also household-level</source>
        <translation>aussi du ménage</translation>
    </message>
    <message>
        <source>Quasi-identifiers to release alike for every member of a household, besides those found constant within every household.</source>
        <translation>Quasi-identifiants à publier à l&apos;identique pour tous les membres d&apos;un ménage, en plus de ceux constants dans chaque ménage.</translation>
    </message>
    <message>
        <source>household id released as</source>
        <translation>identifiant du ménage publié comme</translation>
    </message>
    <message>
        <source>&apos;recode&apos;: a fresh random numbering in every release, so members can be grouped but no id links back; &apos;none&apos;: left out.</source>
        <translation>«&#xa0;recode&#xa0;»&#xa0;: une nouvelle numérotation aléatoire à chaque publication, si bien que les membres peuvent être regroupés sans qu&apos;aucun identifiant ne renvoie à l&apos;original&#xa0;; «&#xa0;none&#xa0;»&#xa0;: laissé de côté.</translation>
    </message>
    <message>
        <source>weight released as</source>
        <translation>poids publié comme</translation>
    </message>
    <message>
        <source>&apos;class&apos;: every record carries its class&apos;s mean weight (the weight never splits a class; each class&apos;s sum of weights is kept); &apos;keep&apos;: unchanged (weights can reveal the sampling stratum: the run reports k and t with the weight as a key); &apos;none&apos;: left out.</source>
        <translation>&apos;class&apos;&#xa0;: chaque enregistrement porte le poids moyen de sa classe (le poids ne divise jamais une classe&#xa0;; la somme des poids de chaque classe est conservée)&#xa0;; &apos;keep&apos;&#xa0;: inchangé (les poids peuvent révéler la strate d&apos;échantillonnage&#xa0;: l&apos;exécution indique k et t avec le poids comme clé)&#xa0;; &apos;none&apos;&#xa0;: omis.</translation>
    </message>
    <message>
        <source>column types</source>
        <translation>types de colonne</translation>
    </message>
    <message>
        <source>The type of a column where it is not the one inferred from its values.</source>
        <translation>Le type d&apos;une colonne lorsqu&apos;il n&apos;est pas celui déduit de ses valeurs.</translation>
    </message>
    <message>
        <source>category orders</source>
        <translation>ordre des catégories</translation>
    </message>
    <message>
        <source>The categories of an ordinal column from the lowest to the highest.</source>
        <translation>Les catégories d&apos;une colonne ordinale, de la plus basse à la plus haute.</translation>
    </message>
    <message>
        <source>missing-value codes</source>
        <translation>codes de valeur manquante</translation>
    </message>
    <message>
        <source>Values that stand for a missing answer in every column (-9, N/A).</source>
        <translation>Valeurs qui signalent une réponse manquante dans toutes les colonnes (-9, N/A).</translation>
    </message>
    <message>
        <source>missing-value codes of single columns</source>
        <translation>codes de valeur manquante de colonnes particulières</translation>
    </message>
    <message>
        <source>Values that stand for a missing answer in one column only.</source>
        <translation>Valeurs qui signalent une réponse manquante dans une seule colonne.</translation>
    </message>
    <message>
        <source>records without a confidential value</source>
        <translation>enregistrements sans valeur confidentielle</translation>
    </message>
    <message>
        <source>&apos;bucket&apos; releases them in a bucket of their own (released empty); &apos;drop&apos; leaves them out of the release.</source>
        <translation>«&#xa0;bucket&#xa0;» les publie dans une tranche à part (publiée vide)&#xa0;; «&#xa0;drop&#xa0;» les laisse hors de la publication.</translation>
    </message>
    <message>
        <source>smallest group size k</source>
        <translation>taille minimale des groupes k</translation>
    </message>
    <message>
        <source>k: every released combination of quasi-identifier values is shared by at least k records, so no one can be singled out by them.</source>
        <translation>k&#xa0;: chaque combinaison publiée de valeurs des quasi-identifiants est partagée par au moins k enregistrements&#xa0;; personne ne peut donc être isolé par eux.</translation>
    </message>
    <message>
        <source>records</source>
        <translation>enregistrements</translation>
    </message>
    <message>
        <source>privacy level t</source>
        <translation>niveau de confidentialité t</translation>
    </message>
    <message>
        <source>t ≥ 1: inside every group, each confidential bucket&apos;s share may be at most t times (and at least 1/t of) its share in the whole file. Smaller t = more privacy.</source>
        <translation>t ≥ 1&#xa0;: dans chaque groupe, la part de chaque tranche confidentielle peut valoir au plus t fois (et au moins 1/t de) sa part dans le fichier entier. Plus t est petit, plus la confidentialité est forte.</translation>
    </message>
    <message>
        <source>privacy level ε</source>
        <translation>niveau de confidentialité ε</translation>
    </message>
    <message>
        <source>ε &gt; 0: the privacy budget of differential privacy; smaller ε = more privacy. With buckets, t = exp(ε/2).</source>
        <translation>ε &gt; 0&#xa0;: le budget de confidentialité de la confidentialité différentielle&#xa0;; plus ε est petit, plus la confidentialité est forte. Avec des tranches, t = exp(ε/2).</translation>
    </message>
    <message>
        <source>mechanism</source>
        <translation>mécanisme</translation>
    </message>
    <message>
        <source>&apos;buckets&apos;: t-closeness by grouping the confidential values; &apos;laplace&apos;: ε-differential privacy by random noise.</source>
        <translation>«&#xa0;buckets&#xa0;»&#xa0;: t-proximité par regroupement des valeurs confidentielles&#xa0;; «&#xa0;laplace&#xa0;»&#xa0;: ε-confidentialité différentielle par bruit aléatoire.</translation>
    </message>
    <message>
        <source>number of buckets</source>
        <translation>nombre de tranches</translation>
    </message>
    <message>
        <source>How many buckets the confidential values are grouped into; &apos;automatic&apos; lets the engine choose for t and k. More buckets keep more detail but need larger groups.</source>
        <translation>En combien de tranches les valeurs confidentielles sont regroupées&#xa0;; «&#xa0;automatique&#xa0;» laisse le moteur choisir selon t et k. Plus de tranches gardent plus de détail mais demandent des groupes plus grands.</translation>
    </message>
    <message>
        <source>weight of the confidential loss</source>
        <translation>poids de la perte confidentielle</translation>
    </message>
    <message>
        <source>How the search of the number of buckets weighs the confidential loss against the quasi-identifiers&apos; loss (0: only the quasi-identifiers count, 1: only the confidential values).</source>
        <translation>Comment la recherche du nombre de tranches pèse la perte confidentielle face à celle des quasi-identifiants (0&#xa0;: seuls les quasi-identifiants comptent&#xa0;; 1&#xa0;: seules les valeurs confidentielles).</translation>
    </message>
    <message>
        <source>confidential columns bucketed together</source>
        <translation>colonnes confidentielles regroupées ensemble</translation>
    </message>
    <message>
        <source>Several confidential columns form one joint bucket (the stronger guarantee); off: each column is bucketed on its own.</source>
        <translation>Plusieurs colonnes confidentielles forment une tranche commune (la garantie la plus forte)&#xa0;; désactivé&#xa0;: chaque colonne est regroupée séparément.</translation>
    </message>
    <message>
        <source>public bounds</source>
        <translation>bornes publiques</translation>
    </message>
    <message>
        <source>Public lower and upper limits of each numeric confidential column (COLUMN=LOW:HIGH), known without looking at the data (e.g. from the questionnaire). Noise is calibrated to them and released values are kept within them; the outer buckets end at them. The data&apos;s own minimum and maximum are never used.</source>
        <translation>Bornes publiques inférieure et supérieure de chaque colonne confidentielle numérique (COLONNE=MIN:MAX), connues sans regarder les données (p. ex. d&apos;après le questionnaire). Le bruit est calibré sur elles et les valeurs publiées y sont maintenues&#xa0;; les tranches extrêmes s&apos;arrêtent à elles. Le minimum et le maximum des données elles-mêmes ne sont jamais utilisés.</translation>
    </message>
    <message>
        <source>share of ε for private bounds</source>
        <translation>part de ε pour les bornes privées</translation>
    </message>
    <message>
        <source>For a numeric confidential column without public bounds: estimate its limits from the data with differential privacy, spending this share of its ε (the rest goes into the noise)</source>
        <translation>Pour une colonne confidentielle numérique sans bornes publiques&#xa0;: estimer ses bornes à partir des données avec la confidentialité différentielle, en dépensant cette part de son ε (le reste va au bruit)</translation>
    </message>
    <message>
        <source>public categories</source>
        <translation>catégories publiques</translation>
    </message>
    <message>
        <source>Every category a nominal confidential column can take (COLUMN=CAT|CAT|…), known without looking at the data (e.g. the answers of the questionnaire). The noise mechanism&apos;s randomized response draws from them, and a value outside them is released as one of them at random. The categories seen in the data are never used: one person&apos;s rare category would show.</source>
        <translation>Toutes les catégories que peut prendre une colonne confidentielle nominale (COLONNE=CAT|CAT|…), connues sans regarder les données (p. ex. les réponses du questionnaire). La réponse randomisée du mécanisme de bruit tire parmi elles, et une valeur hors de ces catégories est publiée comme l&apos;une d&apos;elles tirée au hasard. Les catégories vues dans les données ne sont jamais utilisées&#xa0;: la catégorie rare d&apos;une personne se verrait.</translation>
    </message>
    <message>
        <source>average in groups of k before adding noise</source>
        <translation>moyenner par groupes de k avant d&apos;ajouter le bruit</translation>
    </message>
    <message>
        <source>Insensitive microaggregation: noise of scale Δ/(k·ε) instead of Δ/ε for the same ε</source>
        <translation>Microagrégation insensible&#xa0;: bruit d&apos;échelle Δ/(k·ε) au lieu de Δ/ε pour le même ε</translation>
    </message>
    <message>
        <source>redraw the noise until t-close at</source>
        <translation>retirer le bruit jusqu&apos;à être t-proche avec</translation>
    </message>
    <message>
        <source>Draw the noise again until the release is also t-close on the buckets at this t.</source>
        <translation>Tirer à nouveau le bruit jusqu&apos;à ce que la publication soit aussi t-proche sur les tranches avec ce t.</translation>
    </message>
    <message>
        <source>noise in proportion to each value</source>
        <translation>bruit proportionnel à chaque valeur</translation>
    </message>
    <message>
        <source>The noise is added to log(1 + value) and the result taken back, so small values get small errors and large values large ones. For positive, skewed columns; the public bounds must then be 0 or more. The same ε either way.</source>
        <translation>Le bruit est ajouté à log(1 + valeur) et le résultat ramené à l&apos;échelle d&apos;origine&#xa0;: les petites valeurs reçoivent de petites erreurs, les grandes de grandes. Pour les colonnes positives et asymétriques&#xa0;; les bornes publiques doivent alors être 0 ou plus. Le même ε dans les deux cas.</translation>
    </message>
    <message>
        <source>quasi-identifiers released as</source>
        <translation>quasi-identifiants publiés sous forme de</translation>
    </message>
    <message>
        <source>&apos;centroid&apos;: one typical value per group; &apos;range&apos;: the range the group spans.</source>
        <translation>«&#xa0;centroid&#xa0;»&#xa0;: une valeur type par groupe&#xa0;; «&#xa0;range&#xa0;»&#xa0;: l&apos;intervalle couvert par le groupe.</translation>
    </message>
    <message>
        <source>confidential values released as</source>
        <translation>valeurs confidentielles publiées sous forme de</translation>
    </message>
    <message>
        <source>Each bucket&apos;s mean, its median, or its label (the interval or set).</source>
        <translation>La moyenne de chaque tranche, sa médiane ou son étiquette (l&apos;intervalle ou l&apos;ensemble).</translation>
    </message>
    <message>
        <source>random seed</source>
        <translation>graine aléatoire</translation>
    </message>
    <message>
        <source>A whole number makes the run reproducible for an audit; the release is then only as private as the seed is secret</source>
        <translation>Un nombre entier rend le calcul reproductible pour un audit&#xa0;; la publication n&apos;est alors confidentielle que si la graine reste secrète</translation>
    </message>
    <message>
        <source>release type</source>
        <translation>type de diffusion</translation>
    </message>
    <message>
        <source>Who may obtain the file: &apos;public&apos; (anyone), &apos;scientific&apos; (registered researchers), &apos;licensed&apos; (named users under an agreement) or &apos;enclave&apos; (only inside a controlled environment). The plan says when k is below what the guidance asks for this type.</source>
        <translation>Qui peut obtenir le fichier&#xa0;: &apos;public&apos; (tout le monde), &apos;scientific&apos; (chercheurs enregistrés), &apos;licensed&apos; (utilisateurs nommés sous accord) ou &apos;enclave&apos; (uniquement dans un environnement contrôlé). Le plan signale quand k est inférieur à ce que le guide demande pour ce type.</translation>
    </message>
    <message>
        <source>intruder scenario</source>
        <translation>scénario d’intrusion</translation>
    </message>
    <message>
        <source>What an intruder is assumed to know and do (e.g. &apos;a neighbour who knows age, sex and commune&apos;), in a sentence or two; published with the release.</source>
        <translation>Ce qu’un intrus est censé savoir et faire (p. ex. «&#xa0;un voisin qui connaît l’âge, le sexe et la commune&#xa0;»), en une ou deux phrases&#xa0;; publié avec la diffusion.</translation>
    </message>
    <message>
        <source>hierarchies</source>
        <translation>hiérarchies</translation>
    </message>
    <message>
        <source>A nominal quasi-identifier&apos;s classification, from the finest level to the coarsest (commune, district, province): groups are formed with it, and each releases the finest level all its members share, never a category one of them does not hold.</source>
        <translation>La classification d’un quasi-identifiant nominal, du niveau le plus fin au plus large (commune, district, province)&#xa0;: les groupes sont formés avec elle, et chacun diffuse le niveau le plus fin que partagent tous ses membres, jamais une catégorie que l’un d’eux n’a pas.</translation>
    </message>
    <message>
        <source>bands</source>
        <translation>tranches</translation>
    </message>
    <message>
        <source>Public cut points of a numeric quasi-identifier (COLUMN=15:25:45:65): its values are replaced by their band before the records are grouped.</source>
        <translation>Seuils publics d’un quasi-identifiant numérique (COLONNE=15:25:45:65)&#xa0;: ses valeurs sont remplacées par leur tranche avant le regroupement des enregistrements.</translation>
    </message>
    <message>
        <source>top codes</source>
        <translation>codes plafonds</translation>
    </message>
    <message>
        <source>A public top code of a numeric column (COLUMN=VALUE): larger values are replaced by it before the records are grouped.</source>
        <translation>Un code plafond public d’une colonne numérique (COLONNE=VALEUR)&#xa0;: les valeurs plus grandes sont remplacées par lui avant le regroupement des enregistrements.</translation>
    </message>
    <message>
        <source>bottom codes</source>
        <translation>codes planchers</translation>
    </message>
    <message>
        <source>A public bottom code of a numeric column (COLUMN=VALUE): smaller values are replaced by it before the records are grouped.</source>
        <translation>Un code plancher public d’une colonne numérique (COLONNE=VALEUR)&#xa0;: les valeurs plus petites sont remplacées par lui avant le regroupement des enregistrements.</translation>
    </message>
</context>
<context>
    <name>words</name>
    <message>
        <source>At this level the release would be one single group of all {n} people: every quasi-identifier would be replaced by one value for everybody.</source>
        <extracomment>a :class:`~engine.release.Plan` and a :class:`~engine.release.RunSummary`, read by attribute: both modules import this one (the summary&apos;s published metadata carries its public phrases), so it does not import them the translation context of the templates in the app&apos;s .ts files every value (and the choice of the sentence) comes from summary fields declared published: the phrase may go out with the release (:func:`public_words`)</extracomment>
        <translation>À ce niveau, la publication serait un seul groupe réunissant les {n} personnes&#xa0;: chaque quasi-identifiant serait remplacé par une même valeur pour tout le monde.</translation>
    </message>
    <message>
        <source>Each group of at least {k} people looks like the whole file in its {columns} mix, within a factor {t}.</source>
        <translation>Chaque groupe d&apos;au moins {k} personnes ressemble au fichier entier dans sa répartition de {columns}, à un facteur {t} près.</translation>
    </message>
    <message>
        <source>So learning which group someone is in tells little more about their {columns} than the whole file already does, and nobody can be singled out by {qis}.</source>
        <translation>Savoir dans quel groupe se trouve une personne n&apos;en dit donc guère plus sur son {columns} que le fichier entier, et personne ne peut être isolé par {qis}.</translation>
    </message>
    <message>
        <source>Every combination of {qis} that is released is shared by at least {k} people, so nobody can be singled out by them.</source>
        <translation>Chaque combinaison publiée de {qis} est partagée par au moins {k} personnes&#xa0;: personne ne peut donc être isolé par elles.</translation>
    </message>
    <message>
        <source>The groups will hold {average} people or more on average (k = {k} was asked).</source>
        <translation>Les groupes contiendront {average} personnes ou plus en moyenne (k = {k} demandé).</translation>
    </message>
    <message>
        <source>Whether or not any one person is in the file changes the chance of any released {columns} value by at most a factor {factor} (ε = {epsilon}).</source>
        <translation>La présence ou l&apos;absence d&apos;une personne dans le fichier change la probabilité de toute valeur publiée de {columns} d&apos;un facteur {factor} au plus (ε = {epsilon}).</translation>
    </message>
    <message>
        <source>Averaging in groups of {k} before the noise makes the noise {k} times smaller. The price: one person&apos;s own released value, compared with anybody else&apos;s, may be up to a factor {factor_k} more likely, not {factor} (e^(k·ε) instead of e^ε), and the people who share a group are visibly linked.</source>
        <translation>Faire la moyenne par groupes de {k} avant le bruit rend le bruit {k} fois plus petit. Le prix&#xa0;: la valeur publiée d&apos;une personne, comparée à celle de n&apos;importe qui d&apos;autre, peut être jusqu&apos;à un facteur {factor_k} plus probable, et non {factor} (e^(k·ε) au lieu de e^ε), et les personnes qui partagent un groupe sont visiblement liées.</translation>
    </message>
    <message>
        <source>Even so, that noise is {ratio} times as large as the spread of the middle half of the {column} values: the released values would be mostly noise. Narrower public limits, the buckets mechanism or a larger ε would keep more of them.</source>
        <translation>Même ainsi, ce bruit vaut {ratio} fois l&apos;étendue de la moitié centrale des valeurs de {column}&#xa0;: les valeurs publiées seraient surtout du bruit. Des limites publiques plus étroites, le mécanisme par tranches ou un ε plus grand en garderaient davantage.</translation>
    </message>
    <message>
        <source>That noise is {ratio} times as large as the spread of the middle half of the {column} values: the released values would be mostly noise. Averaging in groups of k before the noise, narrower public limits, the buckets mechanism or a larger ε would keep more of them.</source>
        <translation>Ce bruit vaut {ratio} fois l&apos;étendue de la moitié centrale des valeurs de {column}&#xa0;: les valeurs publiées seraient surtout du bruit. Faire la moyenne par groupes de k avant le bruit, des limites publiques plus étroites, le mécanisme par tranches ou un ε plus grand en garderaient davantage.</translation>
    </message>
    <message>
        <source>{column}: each answer is kept with probability {keep}, otherwise replaced by a category drawn at random.</source>
        <translation>{column}&#xa0;: chaque réponse est conservée avec une probabilité de {keep}, sinon remplacée par une catégorie tirée au hasard.</translation>
    </message>
    <message>
        <source>{column}: each value gets random noise; its lowest and highest possible values are estimated privately from the data first.</source>
        <translation>{column}&#xa0;: chaque valeur reçoit un bruit aléatoire&#xa0;; ses valeurs minimale et maximale possibles sont d&apos;abord estimées de façon privée à partir des données.</translation>
    </message>
    <message>
        <source>{column}: each value gets random noise in proportion to its size: half of the values stay within a factor {factor} of their true value, and every value stays between the public limits {low} and {high}.</source>
        <translation>{column}&#xa0;: chaque valeur reçoit un bruit aléatoire proportionnel à sa taille&#xa0;: la moitié des valeurs restent à moins d&apos;un facteur {factor} de leur vraie valeur, et toutes restent entre les limites publiques {low} et {high}.</translation>
    </message>
    <message>
        <source>{column}: each value gets random noise, about ±{error} on average, and stays between the public limits {low} and {high}.</source>
        <translation>{column}&#xa0;: chaque valeur reçoit un bruit aléatoire, d&apos;environ ±{error} en moyenne, et reste entre les bornes publiques {low} et {high}.</translation>
    </message>
    <message>
        <source>The release is one single group of all {n} people: every quasi-identifier holds one value for everybody.</source>
        <translation>La publication est un seul groupe réunissant les {n} personnes&#xa0;: chaque quasi-identifiant a une même valeur pour tout le monde.</translation>
    </message>
    <message>
        <source>The {groups} groups hold at least {k} people each, and each looks like the whole file in its {columns} mix within a factor {t} (asked: {asked}).</source>
        <translation>Les {groups} groupes comptent chacun au moins {k} personnes, et chacun ressemble au fichier entier dans sa répartition de {columns} à un facteur {t} près (demandé&#xa0;: {asked}).</translation>
    </message>
    <message>
        <source>The {groups} groups hold at least {k} people each.</source>
        <translation>Les {groups} groupes comptent chacun au moins {k} personnes.</translation>
    </message>
    <message>
        <source>{column}: the {missing} missing values are released empty, none filled in; {withheld} known values are released empty too, so that the groups could form.</source>
        <translation>{column}&#xa0;: les {missing} valeurs manquantes sont publiées vides, aucune n&apos;est complétée&#xa0;; {withheld} valeurs connues sont aussi publiées vides, pour que les groupes puissent se former.</translation>
    </message>
    <message>
        <source>{column}: the {missing} missing values are released empty, none filled in.</source>
        <translation>{column}&#xa0;: les {missing} valeurs manquantes sont publiées vides, aucune n&apos;est complétée.</translation>
    </message>
    <message>
        <source>{column}: {share} of the answers were changed at random.</source>
        <translation>{column}&#xa0;: {share} des réponses ont été modifiées au hasard.</translation>
    </message>
    <message>
        <source>{column}: the released values differ from the true ones by {error} on average.</source>
        <translation>{column}&#xa0;: les valeurs publiées s&apos;écartent des vraies de {error} en moyenne.</translation>
    </message>
    <message>
        <source>{column}: the released values differ from the true ones by {error} on average, less than the ±{expected} the noise alone adds on average: a noisy value beyond the public limits {low} and {high} is clamped back to them, which brings it closer to the true one.</source>
        <translation>{column}&#xa0;: les valeurs publiées diffèrent des vraies de {error} en moyenne, moins que les ±{expected} qu&apos;ajoute le bruit seul en moyenne&#xa0;: une valeur bruitée au-delà des limites publiques {low} et {high} y est ramenée, ce qui la rapproche de la vraie.</translation>
    </message>
    <message>
        <source>{column}: the released values differ from the true ones by {error} on average, more than the ±{expected} the noise alone adds on average: values outside the public limits {low} and {high} are clamped to them before the noise, and values averaged in groups lose their own detail.</source>
        <translation>{column}&#xa0;: les valeurs publiées diffèrent des vraies de {error} en moyenne, plus que les ±{expected} qu&apos;ajoute le bruit seul en moyenne&#xa0;: les valeurs hors des limites publiques {low} et {high} y sont ramenées avant le bruit, et les valeurs moyennées par groupes perdent leur propre détail.</translation>
    </message>
    <message>
        <source>{column}: the shares in the file are pulled towards equal shares by the random answers; corrected for that (from the released answers and the public chance of keeping one), the original shares are estimated at {shares}.</source>
        <translation>{column}&#xa0;: les réponses aléatoires rapprochent les parts du fichier de parts égales&#xa0;; une fois corrigées (à partir des réponses publiées et de la probabilité publique d&apos;en garder une), les parts d&apos;origine sont estimées à {shares}.</translation>
    </message>
</context>
</TS>
