-- CreateTable
CREATE TABLE "api_key_hourly_usage" (
    "key_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "api_key_hourly_usage_pkey" PRIMARY KEY ("key_id","hour")
);

-- AddForeignKey
ALTER TABLE "api_key_hourly_usage" ADD CONSTRAINT "api_key_hourly_usage_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
