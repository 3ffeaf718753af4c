package io.quotaflow.publish;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.ticket.Priority;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides, for one line of a JSON-lines file, whether it is a ticket that can be keyed, under
 * which key and to which priority topic it goes. Pure logic: no Kafka, no I/O, thread-safe.
 *
 * <p>Rules:
 * <ul>
 *   <li>a blank line (only whitespace) is not a record at all;</li>
 *   <li>a line that is not one JSON value, not a JSON object, or has no usable {@code id} (a
 *       non-blank string or a number) is invalid; its key would be {@code line-N};</li>
 *   <li>the topic is the override priority when one is given, else the line's {@code priority}
 *       field, else {@code standard}; an unknown priority value is a warning and goes to
 *       {@code standard}; invalid lines go to the override or {@code standard};</li>
 *   <li>a ticket with neither a non-blank {@code subject} nor {@code body} is still keyed and sent
 *       (the pipeline dead-letters it as {@code bad-input}) but gets a warning.</li>
 * </ul>
 * The value is never re-serialised: it is the line's bytes exactly as read.
 */
public final class TicketLineParser {

    public static final String NOT_JSON = "not JSON";
    public static final String NOT_AN_OBJECT = "not a JSON object";
    public static final String MISSING_ID = "missing id";
    public static final String BLANK_ID = "blank id";
    public static final String BAD_ID_TYPE = "id is not a string or number";
    public static final String NO_TEXT = "no subject or body";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final Optional<Priority> override;

    /** @param override when present, every line goes to this priority's topic */
    public TicketLineParser(Optional<Priority> override) {
        this.override = Objects.requireNonNull(override, "override");
    }

    /** A parser that routes by each line's {@code priority} field. */
    public TicketLineParser() {
        this(Optional.empty());
    }

    /** The key an invalid line is sent under when invalid lines are sent anyway. */
    public static String keyForInvalidLine(long lineNumber) {
        return "line-" + lineNumber;
    }

    /** Parses a line given as text (encoded as UTF-8). Empty for a blank line. */
    public Optional<TicketLine> parse(long lineNumber, String line) {
        return parse(lineNumber, line.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Parses one line (without its terminator). Empty for a blank line. The returned record keeps
     * {@code line} itself as its value (no copy): do not modify the array afterwards.
     */
    public Optional<TicketLine> parse(long lineNumber, byte[] line) {
        Objects.requireNonNull(line, "line");
        if (isBlank(line)) {
            return Optional.empty();
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(line);
        } catch (IOException e) { // JacksonException: syntax, encoding, trailing tokens, limits
            return Optional.of(invalid(lineNumber, line, NOT_JSON));
        }
        if (root == null || root.isMissingNode()) {
            return Optional.of(invalid(lineNumber, line, NOT_JSON));
        }
        if (!root.isObject()) {
            return Optional.of(invalid(lineNumber, line, NOT_AN_OBJECT));
        }
        JsonNode id = root.get("id");
        String key;
        if (id == null || id.isNull()) {
            return Optional.of(invalid(lineNumber, line, MISSING_ID));
        } else if (id.isTextual()) {
            if (id.textValue().isBlank()) {
                return Optional.of(invalid(lineNumber, line, BLANK_ID));
            }
            key = id.textValue();
        } else if (id.isNumber()) {
            key = id.asText();
        } else {
            return Optional.of(invalid(lineNumber, line, BAD_ID_TYPE));
        }

        List<String> warnings = new ArrayList<>(2);
        Priority priority = override.orElseGet(() -> priorityField(root.get("priority"), warnings));
        if (!hasText(root.get("subject")) && !hasText(root.get("body"))) {
            warnings.add(NO_TEXT);
        }
        return Optional.of(new TicketLine(lineNumber, line, key, priority, null, warnings));
    }

    private static Priority priorityField(JsonNode field, List<String> warnings) {
        if (field == null || field.isNull()) {
            return Priority.STANDARD;
        }
        if (field.isTextual()) {
            Optional<Priority> parsed = Priority.parse(field.textValue());
            if (parsed.isPresent()) {
                return parsed.get();
            }
            warnings.add("unknown priority \"" + abbreviate(field.textValue(), 40) + "\"");
        } else {
            warnings.add("priority is not a string");
        }
        return Priority.STANDARD;
    }

    private TicketLine invalid(long lineNumber, byte[] line, String problem) {
        return new TicketLine(lineNumber, line, keyForInvalidLine(lineNumber), override.orElse(Priority.STANDARD),
                problem, List.of());
    }

    private static boolean hasText(JsonNode node) {
        return node != null && node.isTextual() && !node.textValue().isBlank();
    }

    static boolean isBlank(byte[] line) {
        for (byte b : line) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n' && b != '\f') {
                return false;
            }
        }
        return true;
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "...";
    }
}
