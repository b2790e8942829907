// Prisma CLI configuration. The app itself opens the database in src/db (PGlite or PostgreSQL).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/prs" },
});
