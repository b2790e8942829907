// A report's photos on its dashboard page: thumbnails in gallery order (the first is the cover), each with its alt
// text; with reports:update, upload (the REST multipart route), make one the cover, delete one (after a
// confirmation), and name one the agent's photo or the brokerage's logo (updateReport) — which the client's page then
// shows in its header instead of the gallery. Thumbnails are read with the key (GET …/photos/{id}/image), never by
// a URL holding it, and shown from blob URLs.
import { useEffect, useState } from "preact/hooks";
import { client, graphql, OWN_REQUEST, restFetch } from "../graphql";
import type { PageProps } from "../page";
import { ErrorMessage, Loading, messageOf, useFormAction, useLoad } from "../ui";

const PHOTOS = graphql(`
  query ReportPhotos($reportId: ID!) {
    reportPhotos(reportId: $reportId) { id alt position }
    report(id: $reportId) { id agentPhotoId brokerageLogoId }
  }
`);
const MOVE = graphql(`
  mutation MovePhoto($reportId: ID!, $id: ID!, $input: UpdatePhotoInput!) {
    updatePhoto(reportId: $reportId, id: $id, input: $input) { id position cover }
  }
`);
const DELETE = graphql(`
  mutation DeletePhoto($reportId: ID!, $id: ID!) {
    deletePhoto(reportId: $reportId, id: $id)
  }
`);
const BRAND = graphql(`
  mutation BrandingPhotos($id: ID!, $input: UpdateReportInput!) {
    updateReport(id: $id, input: $input) { id agentPhotoId brokerageLogoId }
  }
`);

/** The thumbnail of a photo, read with the key into a blob URL (revoked when the photo leaves the page). */
function Thumbnail({ apiKey, reportId, photoId, alt }: { apiKey: string; reportId: string; photoId: string; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    let gone = false;
    void fetch(`/v1/reports/${reportId}/photos/${photoId}/image?width=480`, { headers: { Authorization: `Bearer ${apiKey}`, ...OWN_REQUEST } })
      .then((res) => (res.ok ? res.blob() : null))
      .then((blob) => {
        if (!blob || gone) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [reportId, photoId]);
  return url ? <img src={url} alt={alt} loading="lazy" /> : <div class="thumb-placeholder" role="img" aria-label={`${alt} (loading)`} />;
}

/** The upload form: an image and its alt text, sent to POST /v1/reports/{id}/photos (multipart). */
function Upload({ props, reportId, onDone }: { props: PageProps; reportId: string; onDone: () => void }) {
  const upload = useFormAction(async (data) => {
    await restFetch(props, `/v1/reports/${reportId}/photos`, "Upload", { method: "POST", body: data });
    onDone();
  });
  return (
    <form onSubmit={upload.onSubmit} aria-label="Upload a photo">
      <div class="fields">
        <label>
          Photo (JPEG, PNG or WebP, up to 25 MB)
          <input type="file" name="file" accept="image/jpeg,image/png,image/webp" required />
        </label>
        <label>
          Alt text (what the photo shows, read to people who cannot see it)
          <input name="alt" required maxLength={1000} autoComplete="off" placeholder="e.g. The kitchen, facing the garden" />
        </label>
      </div>
      <button type="submit" disabled={upload.busy}>
        {upload.busy ? "Uploading…" : "Upload"}
      </button>
      <ErrorMessage error={upload.error} />
    </form>
  );
}

export function ReportPhotos({ props, reportId, editable }: { props: PageProps; reportId: string; editable: boolean }) {
  const api = client(props);
  const photos = useLoad(() => api(PHOTOS, { reportId }), [reportId]);
  const [error, setError] = useState<string | null>(null);
  const act = async (what: () => Promise<unknown>) => {
    try {
      await what();
      setError(null);
      photos.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const list = photos.data?.reportPhotos;
  const report = photos.data?.report;
  const gallery = (list ?? []).filter((p) => p.id !== report?.agentPhotoId && p.id !== report?.brokerageLogoId).map((p) => p.id);
  const brand = (input: { agentPhotoId?: string | null; brokerageLogoId?: string | null }) => act(() => api(BRAND, { id: reportId, input }));
  return (
    <section class="card" aria-labelledby="photos-title">
      <h2 id="photos-title">Photos</h2>
      <p class="hint">The first is the cover of the client's page and PDF; the agent's photo and the logo appear in its header instead.</p>
      <ErrorMessage error={photos.error ?? error} onRetry={photos.error ? photos.reload : undefined} />
      {!photos.data && !photos.error && <Loading what="the photos" />}
      {list && list.length === 0 && <p>No photos yet.</p>}
      {list && list.length > 0 && (
        <ul class="photos">
          {list.map((p) => {
            const isAgent = report?.agentPhotoId === p.id;
            const isLogo = report?.brokerageLogoId === p.id;
            // The client's gallery: the photos that are neither; its first is the cover.
            const place = gallery.indexOf(p.id);
            return (
              <li key={p.id} data-photo-id={p.id}>
                <Thumbnail apiKey={props.apiKey} reportId={reportId} photoId={p.id} alt={p.alt} />
                <p class="photo-alt">{p.alt}</p>
                <p class="badges">{isAgent ? "Agent's photo" : isLogo ? "Brokerage logo" : place === 0 ? "Cover" : `Photo ${place + 1}`}</p>
                {editable && (
                  <div class="row">
                    {place > 0 && (
                      <button type="button" class="secondary" onClick={() => act(() => api(MOVE, { reportId, id: p.id, input: { position: 0 } }))}>
                        Make cover<span class="sr-only"> {p.alt}</span>
                      </button>
                    )}
                    <button type="button" class="secondary" onClick={() => brand({ agentPhotoId: isAgent ? null : p.id })}>
                      {isAgent ? "Not the agent's photo" : "Agent's photo"}
                      <span class="sr-only"> {p.alt}</span>
                    </button>
                    <button type="button" class="secondary" onClick={() => brand({ brokerageLogoId: isLogo ? null : p.id })}>
                      {isLogo ? "Not the logo" : "Logo"}
                      <span class="sr-only"> {p.alt}</span>
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() => confirm(`Delete the photo "${p.alt}"? The client's page and PDF no longer show it.`) && act(() => api(DELETE, { reportId, id: p.id }))}
                    >
                      Delete<span class="sr-only"> {p.alt}</span>
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {editable ? <Upload props={props} reportId={reportId} onDone={photos.reload} /> : <p class="hint">Adding or changing photos needs reports:update.</p>}
    </section>
  );
}
