// Stand-in for the `server-only` package under Vitest, which is not a React Server environment.
export {};
