export interface Opts {
  verbose: boolean;
}
