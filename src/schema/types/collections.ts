// The collections attached to a report. They are read through Report's relation fields.
import { builder } from "../builder";

builder.prismaObject("Comparable", {
  fields: (t) => ({
    id: t.exposeID("id"),
    address: t.exposeString("address"),
    city: t.exposeString("city", { nullable: true }),
    state: t.exposeString("state", { nullable: true }),
    zip: t.exposeString("zip", { nullable: true }),
    price: t.exposeFloat("price", { nullable: true }),
    beds: t.exposeInt("beds", { nullable: true }),
    baths: t.exposeFloat("baths", { nullable: true }),
    sqft: t.exposeInt("sqft", { nullable: true }),
    distanceMiles: t.exposeFloat("distanceMiles", { nullable: true }),
    saleDate: t.expose("saleDate", { type: "DateTime", nullable: true }),
    status: t.exposeString("status", { nullable: true }),
    source: t.exposeString("source", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.prismaObject("SocialMediaPost", {
  fields: (t) => ({
    id: t.exposeID("id"),
    platform: t.exposeString("platform"),
    externalId: t.exposeString("externalId", { nullable: true }),
    url: t.exposeString("url", { nullable: true }),
    caption: t.exposeString("caption", { nullable: true }),
    postedAt: t.expose("postedAt", { type: "DateTime", nullable: true }),
    likes: t.exposeInt("likes"),
    comments: t.exposeInt("comments"),
    shares: t.exposeInt("shares"),
    views: t.exposeInt("views"),
  }),
});

builder.prismaObject("AgentInsight", {
  fields: (t) => ({
    id: t.exposeID("id"),
    author: t.exposeString("author"),
    title: t.exposeString("title", { nullable: true }),
    body: t.exposeString("body"),
    category: t.exposeString("category", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});
