-- CreateTable
CREATE TABLE "photos" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "report_id" UUID NOT NULL,
    "comparable_id" UUID,
    "position" INTEGER NOT NULL,
    "alt" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "widths" INTEGER[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "photos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "photo_files" (
    "photo_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "photo_files_pkey" PRIMARY KEY ("photo_id","name")
);

-- CreateIndex
CREATE INDEX "photos_report_id_comparable_id_position_idx" ON "photos"("report_id", "comparable_id", "position");

-- CreateIndex
CREATE INDEX "photos_comparable_id_idx" ON "photos"("comparable_id");

-- AddForeignKey
ALTER TABLE "photos" ADD CONSTRAINT "photos_report_id_team_id_fkey" FOREIGN KEY ("report_id", "team_id") REFERENCES "reports"("id", "team_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "photos" ADD CONSTRAINT "photos_comparable_id_fkey" FOREIGN KEY ("comparable_id") REFERENCES "comparables"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "photo_files" ADD CONSTRAINT "photo_files_photo_id_fkey" FOREIGN KEY ("photo_id") REFERENCES "photos"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: a change to a team's photos moves its data version (migration *_trusted_documents_http_cache), as its
-- reports' do: answers list them. Their files are written and removed with the photo's row, which moves it already.
SELECT "prs_track_team_version"('photos'::regclass);
