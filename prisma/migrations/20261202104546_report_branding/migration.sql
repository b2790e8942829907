-- AlterTable
ALTER TABLE "reports" ADD COLUMN     "agent_license" TEXT,
ADD COLUMN     "agent_phone" TEXT,
ADD COLUMN     "brokerage_name" TEXT;
