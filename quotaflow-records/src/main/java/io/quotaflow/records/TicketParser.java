package io.quotaflow.records;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Parses and validates ticket JSON, strictly, so that no ticket is silently changed or lost: what
 * a producer wrote is either taken as it is or rejected with a reason.
 *
 * <p>Rules, checked in this order (the reason names the first one broken):
 * <ol>
 *   <li>the value is well-formed UTF-8 holding exactly one JSON value, nothing after it but
 *       whitespace, no duplicate key in any object, no unpaired surrogate in any string or field
 *       name, within Jackson's default limits (see {@link StrictJson});</li>
 *   <li>that value is an object;</li>
 *   <li>{@code id} is a non-blank string or a JSON integer (any size, rendered canonically: {@code -0}
 *       is {@code "0"}) of at most {@value #MAX_ID_LENGTH} characters; a float ({@code 1.0},
 *       {@code 1e400}), boolean, object or array is rejected, not converted;</li>
 *   <li>{@code subject}, {@code body}, {@code tenant} and {@code priority} are strings when present
 *       (JSON {@code null} counts as absent); an unknown priority name is not an error (the ticket
 *       has no priority of its own, {@link Priority#parse});</li>
 *   <li>{@code tenant}, when present, is a valid tenant name ({@link TicketKey#TENANT}: no {@code ':'});</li>
 *   <li>{@code subject} or {@code body} has non-blank text.</li>
 * </ol>
 * Other fields are kept as they are in {@link Ticket#json()}. Reasons are short and echo at most
 * about 60 characters of the input.
 */
public final class TicketParser {

    public static final int MAX_ID_LENGTH = 256;

    public static final String EMPTY = StrictJson.EMPTY;
    /** Prefix of the reason for a value that is not JSON at all ({@code not JSON: ...}). */
    public static final String NOT_JSON = StrictJson.NOT_JSON;
    public static final String NOT_AN_OBJECT = "not a JSON object";
    public static final String MISSING_ID = "missing id";
    public static final String BLANK_ID = "blank id";
    public static final String BAD_ID_TYPE = "id must be a string or an integer";
    public static final String LONG_ID = "id longer than " + MAX_ID_LENGTH + " characters";
    public static final String BAD_TENANT = "tenant must be 1 to " + TicketKey.MAX_TENANT_LENGTH
            + " characters without ':' or control characters";
    public static final String NO_TEXT = "missing subject and body";

    private TicketParser() {
    }

    /** Outcome of parsing one record value. */
    public sealed interface Parsed permits Valid, Invalid {
    }

    public record Valid(Ticket ticket) implements Parsed {
    }

    public record Invalid(String reason) implements Parsed {
    }

    /** Applies every rule: what intake accepts or dead-letters as {@code bad-input} with the reason. */
    public static Parsed parse(byte[] value) {
        Parsed parsed = parseIgnoringText(value);
        if (parsed instanceof Valid valid && !hasText(valid.ticket())) {
            return new Invalid(NO_TEXT);
        }
        return parsed;
    }

    /**
     * Applies every rule but the last: a ticket with neither a subject nor a body is {@link Valid}
     * here, with both null or blank. For the {@code publish} command, which keys such a ticket by
     * its id and sends it with a warning; {@link #parse} rejects it ({@link #NO_TEXT}).
     */
    public static Parsed parseIgnoringText(byte[] value) {
        StrictJson.Result read = StrictJson.read(value);
        if (!read.ok()) {
            return new Invalid(read.problem());
        }
        if (!read.value().isObject()) {
            return new Invalid(NOT_AN_OBJECT);
        }
        ObjectNode object = (ObjectNode) read.value();

        JsonNode idNode = object.get("id");
        String id;
        if (idNode == null || idNode.isNull()) {
            return new Invalid(MISSING_ID);
        } else if (idNode.isTextual()) {
            id = idNode.textValue();
            if (id.isBlank()) {
                return new Invalid(BLANK_ID);
            }
        } else if (idNode.isIntegralNumber()) {
            id = idNode.bigIntegerValue().toString();
        } else {
            return new Invalid(BAD_ID_TYPE);
        }
        if (id.length() > MAX_ID_LENGTH) {
            return new Invalid(LONG_ID);
        }

        String[] text = new String[4];
        String[] names = {"subject", "body", "tenant", "priority"};
        for (int i = 0; i < names.length; i++) {
            JsonNode node = object.get(names[i]);
            if (node != null && !node.isNull()) {
                if (!node.isTextual()) {
                    return new Invalid(names[i] + " must be a string");
                }
                text[i] = node.textValue();
            }
        }
        return ticket(id, text, object);
    }

    /** The ticket of these fields ({@code subject, body, tenant, priority}), unless its tenant cannot be keyed. */
    private static Parsed ticket(String id, String[] text, ObjectNode object) {
        if (text[2] != null && !text[2].isBlank() && !TicketKey.validTenant(text[2])) {
            return new Invalid(BAD_TENANT);
        }
        return new Valid(new Ticket(id, text[0], text[1], text[2], Priority.parse(text[3]), object));
    }

    /** Whether the ticket has a non-blank subject or body (what the model needs). */
    public static boolean hasText(Ticket ticket) {
        return !isBlank(ticket.subject()) || !isBlank(ticket.body());
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
