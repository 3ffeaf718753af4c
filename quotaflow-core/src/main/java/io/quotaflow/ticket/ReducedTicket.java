package io.quotaflow.ticket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import io.quotaflow.records.Json;
import io.quotaflow.records.Ticket;

/**
 * The part of a ticket quotaflow needs, as ticket JSON: what travels in place of a record value too
 * large to carry whole (its unknown fields are what made it large: attachments, pasted logs). The
 * whole record stays on its origin topic.
 */
public final class ReducedTicket {

    /** Kept only while this small: {@code metadata} is for routing and reports, not for the model. */
    static final int MAX_METADATA_BYTES = 4 * 1024;

    private ReducedTicket() {
    }

    public static byte[] of(Ticket ticket) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("id", ticket.id());
        if (ticket.subject() != null) {
            json.put("subject", ticket.subject());
        }
        if (ticket.body() != null) {
            json.put("body", ticket.body());
        }
        json.put("tenant", ticket.tenant());
        copy(ticket.json(), json, "priority");
        copy(ticket.json(), json, "submittedAt");
        copy(ticket.json(), json, "deadline");
        JsonNode metadata = ticket.json().get("metadata");
        try {
            if (metadata != null && Json.MAPPER.writeValueAsBytes(metadata).length <= MAX_METADATA_BYTES) {
                json.set("metadata", metadata);
            }
            return Json.MAPPER.writeValueAsBytes(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copy(ObjectNode from, ObjectNode to, String field) {
        JsonNode v = from.get(field);
        if (v != null && v.isTextual()) {
            to.set(field, v);
        }
    }
}
