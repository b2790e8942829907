// The CLI's standard output is its answer (a team id, a key, a table): the service's log lines — a warning while the
// database opens, say — go to standard error instead. Imported first by ./prs.ts, before anything loads the logger.
process.env.PRS_LOG_FD = "2";
