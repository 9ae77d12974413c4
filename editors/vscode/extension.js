// Starts `toolidl lsp` (the `toolidl.path` setting, default `toolidl` on PATH) for .tool
// files. Settings under `toolidl` reach the server as initializationOptions and, when they
// change, as workspace/didChangeConfiguration.
"use strict";

const { workspace, window } = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = workspace.getConfiguration("toolidl");
  const command = config.get("path") || "toolidl";
  const serverOptions = { command, args: ["lsp"] };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "toolidl" },
      { scheme: "untitled", language: "toolidl" },
    ],
    initializationOptions: { profile: config.get("profile") ?? null },
    synchronize: {
      configurationSection: "toolidl",
      fileEvents: workspace.createFileSystemWatcher("**/*.tool"),
    },
  };
  client = new LanguageClient("toolidl", "toolidl", serverOptions, clientOptions);
  client.start().catch((error) => {
    window.showErrorMessage(
      `toolidl: cannot start \`${command} lsp\` (${error.message}); set toolidl.path to the toolidl command`,
    );
  });
  context.subscriptions.push(
    workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("toolidl.path")) {
        window.showInformationMessage("toolidl: reload the window to start the new toolidl.path");
      }
    }),
  );
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
