-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "sent_at" TIMESTAMPTZ(3);
