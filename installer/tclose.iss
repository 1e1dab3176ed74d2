; Inno Setup 6 script of the tclose Windows installer.
;
; Packs the PyInstaller app folder installer\dist\tclose\ (build it first, see
; build_windows.ps1, which also runs this script):
;
;     ISCC.exe /DAppVersion=0.1.0 installer\tclose.iss
;
; With /DSign and /Stclosesign="signtool.exe sign ... $f" (build_windows.ps1 does this when
; a signing certificate is configured) the installer and its uninstaller are signed.
;
; Output: installer\dist\tclose-VERSION-windows-x64-setup.exe.  Installs per user without
; administrator rights by default; IT staff install for all users silently with
;
;     tclose-VERSION-windows-x64-setup.exe /VERYSILENT /SUPPRESSMSGBOXES /NORESTART /ALLUSERS
;
; and remove it with "%ProgramFiles%\tclose\unins000.exe" /VERYSILENT.

#ifndef AppVersion
  #error Pass the version: ISCC.exe /DAppVersion=X.Y.Z installer\tclose.iss
#endif
#define AppName "tclose"
#define AppExe "tclose-gui.exe"

[Setup]
; The AppId identifies the product across versions (upgrades, uninstall); never change it.
AppId={{91AC4833-B1AD-4857-8F86-36BFD4A20EF7}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=The tclose developers
AppComments=Publish microdata with k-anonymity, t-closeness and differential privacy, independently verified
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; per-user install without admin rights; /ALLUSERS (or the dialog) installs for everyone
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog commandline
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir=dist
OutputBaseFilename={#AppName}-{#AppVersion}-windows-x64-setup
SetupIconFile=..\resources\icons\tclose.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName} {#AppVersion}
WizardStyle=modern
Compression=lzma2/max
SolidCompression=yes
; an older tclose that is running would keep its files locked
CloseApplications=yes
#ifdef Sign
; Authenticode: build_windows.ps1 passes /DSign and the command as /Stclosesign=...
SignTool=tclosesign
SignedUninstaller=yes
#endif

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[InstallDelete]
; an upgrade replaces the whole bundled runtime, so no stale library of an older version stays
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "dist\tclose\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; Comment: "Publish microdata with a privacy guarantee"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
