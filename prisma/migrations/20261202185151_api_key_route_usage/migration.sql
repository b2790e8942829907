-- CreateTable
CREATE TABLE "api_key_route_usage" (
    "key_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "route" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "api_key_route_usage_pkey" PRIMARY KEY ("key_id","hour","route","outcome")
);

-- AddForeignKey
ALTER TABLE "api_key_route_usage" ADD CONSTRAINT "api_key_route_usage_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The four outcomes the service counts (src/auth/usage.ts), and no other.
ALTER TABLE "api_key_route_usage" ADD CONSTRAINT "api_key_route_usage_outcome_check" CHECK ("outcome" IN ('2xx', '4xx', '429', '5xx'));
