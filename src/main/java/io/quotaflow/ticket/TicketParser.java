package io.quotaflow.ticket;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;

/** Parses and validates ticket JSON: an object with an {@code id} and a subject or a body. */
public final class TicketParser {

    private TicketParser() {
    }

    /** Outcome of parsing one record value. */
    public sealed interface Parsed permits Valid, Invalid {
    }

    public record Valid(Ticket ticket) implements Parsed {
    }

    public record Invalid(String reason) implements Parsed {
    }

    public static Parsed parse(byte[] value) {
        if (value == null || value.length == 0) {
            return new Invalid("empty value");
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(value);
        } catch (JsonProcessingException e) {
            return new Invalid("not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            return new Invalid("not JSON");
        }
        if (node == null || !node.isObject()) {
            return new Invalid("not a JSON object");
        }
        ObjectNode object = (ObjectNode) node;
        String id = text(object.get("id"));
        if (id == null || id.isBlank()) {
            return new Invalid("missing id");
        }
        if (id.length() > 256) {
            return new Invalid("id longer than 256 characters");
        }
        String subject = text(object.get("subject"));
        String body = text(object.get("body"));
        if (isBlank(subject) && isBlank(body)) {
            return new Invalid("missing subject and body");
        }
        String tenant = text(object.get("tenant"));
        return new Valid(new Ticket(id, subject, body, tenant, Priority.parse(text(object.get("priority"))), object));
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static String text(JsonNode node) {
        if (node == null || node.isNull() || node.isContainerNode()) {
            return null;
        }
        return node.asText();
    }
}
