@echo off
rem The `nexus` command of an installed NEXUS (resources\cli\nexus.cmd): the app's own binary runs the
rem command line as plain Node. Put this folder on PATH to use `nexus` in any terminal.
setlocal
set "ELECTRON_RUN_AS_NODE=1"
"%~dp0..\..\NEXUS.exe" "%~dp0nexus.cjs" %*
exit /b %ERRORLEVEL%
