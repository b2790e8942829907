// Showing mutations: create, update and delete, by id or unique_showing_key.
import { randomUUID } from "node:crypto";
import { prisma } from "../../../db";
import { recordEvent, withEvents } from "../../../webhooks/outbox";
import { showingRecord } from "../payloads";
import { builder } from "../../builder";
import { badFields, conflict, isRowGone, isUniqueViolation, notFound } from "../../errors";
import { inputType } from "../../fields";
import { teamIdOf } from "../../scope";
import { REPORT_NOT_FOUND, reportIdOfTeam } from "../report/lookup";
import { showingFields } from "./fields";
import { sealShowingAttendee } from "./attendee";
import { findShowing, SHOWING_NOT_FOUND } from "./object";
import { needs } from "../../needs";

const CreateShowingInput = inputType("CreateShowingInput", showingFields, "create", "A new showing or open house of a report.");
const UpdateShowingInput = inputType("UpdateShowingInput", showingFields, "update", "Only the fields given are changed.");

/** showingTimeEnd must not be before showingTimeStart (when both are known). */
function checkWindow(start: Date | null | undefined, end: Date | null | undefined): void {
  if (start && end && end.getTime() < start.getTime()) {
    throw badFields((name) => `${name(["showingTimeEnd"])} must not be before ${name(["showingTimeStart"])}`, ["showingTimeEnd"]);
  }
}

const duplicateKey = (key: string | null | undefined) => conflict(`Showing with unique_showing_key '${key}' already exists`);

builder.mutationFields((t) => ({
  createShowing: t.prismaField({
    type: "Showing",
    ...needs("showings:create", "Adds a showing or open house to a report of the team. uniqueShowingKey must be new to the team."),
    args: { input: t.arg({ type: CreateShowingInput, required: true, description: "The new showing" }) },
    resolve: async (query, _root, { input }, ctx) => {
      const teamId = teamIdOf(ctx);
      checkWindow(input.showingTimeStart, input.showingTimeEnd);
      const reportId = await reportIdOfTeam(teamId, input.reportId);
      try {
        const id = randomUUID();
        return await withEvents(async (tx) => {
          const showing = await tx.showing.create({ ...query, data: { ...sealShowingAttendee(input), id, reportId, eventType: input.eventType ?? "showing", teamId } });
          await recordEvent(tx, teamId, "showing.created", await showingRecord(tx, id));
          return showing;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateKey(input.uniqueShowingKey);
        if (isRowGone(err)) throw notFound(REPORT_NOT_FOUND); // the report was deleted meanwhile
        throw err;
      }
    },
  }),
  updateShowing: t.prismaField({
    type: "Showing",
    ...needs("showings:update", "Changes the given fields of a showing named by id or unique_showing_key."),
    args: { id: t.arg.string({ required: true, description: "The showing's id or unique_showing_key" }), input: t.arg({ type: UpdateShowingInput, required: true, description: "The fields to change" }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const teamId = teamIdOf(ctx);
      const current = await findShowing(teamId, id, (where) =>
        prisma.showing.findFirst({ where, select: { id: true, showingTimeStart: true, showingTimeEnd: true } }),
      );
      if (!current) throw notFound(SHOWING_NOT_FOUND);
      checkWindow(
        input.showingTimeStart === undefined ? current.showingTimeStart : input.showingTimeStart,
        input.showingTimeEnd === undefined ? current.showingTimeEnd : input.showingTimeEnd,
      );
      const { eventType, ...fields } = input;
      try {
        return await withEvents(async (tx) => {
          const showing = await tx.showing.update({ ...query, where: { id: current.id, teamId }, data: { ...sealShowingAttendee(fields), ...(eventType ? { eventType } : {}) } });
          await recordEvent(tx, teamId, "showing.updated", await showingRecord(tx, current.id));
          return showing;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateKey(input.uniqueShowingKey);
        if (isRowGone(err)) throw notFound(SHOWING_NOT_FOUND);
        throw err;
      }
    },
  }),
  deleteShowing: t.id({
    ...needs("showings:delete", "Deletes a showing named by id or unique_showing_key. Returns its id."),
    args: { id: t.arg.string({ required: true, description: "The showing's id or unique_showing_key" }) },
    resolve: async (_root, { id }, ctx) => {
      const teamId = teamIdOf(ctx);
      const current = await findShowing(teamId, id, (where) => prisma.showing.findFirst({ where, select: { id: true, reportId: true } }));
      if (!current) throw notFound(SHOWING_NOT_FOUND);
      // deleteMany: a concurrent delete of the same showing makes this one a 404, not an error.
      const deleted = await withEvents(async (tx) => {
        const { count } = await tx.showing.deleteMany({ where: { id: current.id, teamId } });
        if (count) await recordEvent(tx, teamId, "showing.deleted", { id: current.id, report_id: current.reportId });
        return count > 0;
      });
      if (!deleted) throw notFound(SHOWING_NOT_FOUND);
      return current.id;
    },
  }),
}));
