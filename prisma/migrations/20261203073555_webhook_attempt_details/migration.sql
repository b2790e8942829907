-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "request_headers" JSONB,
ADD COLUMN     "response_body" TEXT;
