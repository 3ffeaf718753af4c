package io.quotaflow.publish;

import io.quotaflow.records.Priority;
import io.quotaflow.records.Ticket;
import io.quotaflow.records.TicketKey;
import io.quotaflow.records.TicketParser;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides, for one line of a JSON-lines file, whether it is a ticket that can be keyed, under
 * which key and to which priority topic it goes. Pure logic: no Kafka, no I/O, thread-safe.
 *
 * <p>A line is judged by the pipeline's own rules ({@link TicketParser}), so that every line
 * intake would dead-letter as {@code bad-input} is reported here, with its line number, before it
 * is sent:
 * <ul>
 *   <li>a blank line (only whitespace) is not a record at all;</li>
 *   <li>a line {@link TicketParser#parseIgnoringText} rejects (not strict JSON, not an object, a
 *       duplicate key, invalid Unicode, an {@code id} that is not a non-blank string or an integer,
 *       a {@code subject}, {@code body}, {@code tenant} or {@code priority} that is not a string)
 *       is invalid, with the pipeline's reason as its problem; its key would be {@code line-N};</li>
 *   <li>a valid line is keyed by the ticket's key as the pipeline reads it ({@link TicketKey}: the id
 *       for the default tenant, {@code tenant:id} otherwise; an integer id in canonical form:
 *       {@code -0} is {@code "0"});</li>
 *   <li>the topic is the override priority when one is given, else the line's {@code priority}
 *       field, else {@code standard}; an unknown priority name is a warning and goes to
 *       {@code standard}; invalid lines go to the override or {@code standard};</li>
 *   <li>a ticket with neither a non-blank {@code subject} nor {@code body} is still keyed and sent
 *       (the pipeline dead-letters it as {@code bad-input}, under its id) but gets a warning.</li>
 * </ul>
 * The value is never re-serialised: it is the line's bytes exactly as read.
 */
public final class TicketLineParser {

    /** Prefix of the problem of a line that is not JSON at all ({@code not JSON: ...}). */
    public static final String NOT_JSON = TicketParser.NOT_JSON;
    public static final String NOT_AN_OBJECT = TicketParser.NOT_AN_OBJECT;
    public static final String MISSING_ID = TicketParser.MISSING_ID;
    public static final String BLANK_ID = TicketParser.BLANK_ID;
    public static final String BAD_ID_TYPE = TicketParser.BAD_ID_TYPE;
    /** The warning for a ticket without text; the same words as the pipeline's dead-letter reason. */
    public static final String NO_TEXT = TicketParser.NO_TEXT;

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
        TicketParser.Parsed parsed = TicketParser.parseIgnoringText(line);
        if (parsed instanceof TicketParser.Invalid invalid) {
            return Optional.of(invalid(lineNumber, line, invalid.reason()));
        }
        Ticket ticket = ((TicketParser.Valid) parsed).ticket();

        List<String> warnings = new ArrayList<>(2);
        Priority priority = override.orElseGet(() -> priorityField(ticket, warnings));
        if (!TicketParser.hasText(ticket)) {
            warnings.add(NO_TEXT);
        }
        return Optional.of(new TicketLine(lineNumber, line, TicketKey.of(ticket).key(), priority, null, warnings));
    }

    /** The ticket's own priority; a non-string {@code priority} is already an invalid line. */
    private static Priority priorityField(Ticket ticket, List<String> warnings) {
        if (ticket.priority().isPresent()) {
            return ticket.priority().get();
        }
        var field = ticket.json().get("priority");
        if (field != null && field.isTextual()) {
            warnings.add("unknown priority \"" + abbreviate(field.textValue(), 40) + "\"");
        }
        return Priority.STANDARD;
    }

    private TicketLine invalid(long lineNumber, byte[] line, String problem) {
        return new TicketLine(lineNumber, line, keyForInvalidLine(lineNumber), override.orElse(Priority.STANDARD),
                problem, List.of());
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
        if (s.length() <= max) {
            return s;
        }
        int cut = Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max; // never half a pair
        return s.substring(0, cut) + "...";
    }
}
