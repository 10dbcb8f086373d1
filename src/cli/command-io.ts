/** Where a command writes: the process's streams in production, strings in tests. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}
