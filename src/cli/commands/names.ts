// The names of the CLI's own commands (index.ts holds them), so the command line can tell a
// command from a verb without loading either; test/cli checks the two lists agree.
export const COMMAND_NAMES: readonly string[] = ["init", "status", "stop", "digest", "export", "plane", "plugin", "parse", "match", "serve", "watch", "rebuild"];
