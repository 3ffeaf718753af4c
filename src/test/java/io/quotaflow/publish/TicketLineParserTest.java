package io.quotaflow.publish;

import io.quotaflow.ticket.Priority;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class TicketLineParserTest {

    private final TicketLineParser byField = new TicketLineParser();
    private final TicketLineParser toBulk = new TicketLineParser(Optional.of(Priority.BULK));

    private TicketLine parse(TicketLineParser parser, long n, String line) {
        return parser.parse(n, line).orElseThrow();
    }

    @Test
    void shouldRouteByPriorityField() {
        assertThat(parse(byField, 1, "{\"id\":\"T-1\",\"body\":\"x\",\"priority\":\"interactive\"}").topic())
                .isEqualTo("tickets.interactive");
        assertThat(parse(byField, 2, "{\"id\":\"T-2\",\"body\":\"x\",\"priority\":\"bulk\"}").topic())
                .isEqualTo("tickets.bulk");
        assertThat(parse(byField, 3, "{\"id\":\"T-3\",\"body\":\"x\",\"priority\":\"Standard\"}").priority())
                .isEqualTo(Priority.STANDARD);
    }

    @Test
    void shouldRouteToStandardWhenPriorityIsAbsentOrNull() {
        TicketLine absent = parse(byField, 1, "{\"id\":\"T-1\",\"subject\":\"s\"}");
        TicketLine nul = parse(byField, 2, "{\"id\":\"T-2\",\"subject\":\"s\",\"priority\":null}");

        assertThat(absent.priority()).isEqualTo(Priority.STANDARD);
        assertThat(absent.warnings()).isEmpty();
        assertThat(nul.priority()).isEqualTo(Priority.STANDARD);
        assertThat(nul.warnings()).isEmpty();
    }

    @Test
    void shouldWarnAndRouteToStandardOnUnknownPriority() {
        TicketLine line = parse(byField, 7, "{\"id\":\"T-1\",\"body\":\"b\",\"priority\":\"urgent\"}");

        assertThat(line.valid()).isTrue();
        assertThat(line.topic()).isEqualTo("tickets.standard");
        assertThat(line.warnings()).containsExactly("unknown priority \"urgent\"");
    }

    @Test
    void shouldWarnWhenPriorityIsNotAString() {
        TicketLine line = parse(byField, 7, "{\"id\":\"T-1\",\"body\":\"b\",\"priority\":1}");

        assertThat(line.topic()).isEqualTo("tickets.standard");
        assertThat(line.warnings()).containsExactly("priority is not a string");
    }

    @Test
    void shouldUseOverrideWhateverThePriorityFieldSays() {
        TicketLine interactive = parse(toBulk, 1, "{\"id\":\"T-1\",\"body\":\"b\",\"priority\":\"interactive\"}");
        TicketLine unknown = parse(toBulk, 2, "{\"id\":\"T-2\",\"body\":\"b\",\"priority\":\"whatever\"}");

        assertThat(interactive.topic()).isEqualTo("tickets.bulk");
        assertThat(unknown.topic()).isEqualTo("tickets.bulk");
        assertThat(unknown.warnings()).as("the field is irrelevant under an override").isEmpty();
    }

    @Test
    void shouldKeyByIdAndPreserveOriginalBytes() {
        String text = "  {\"subject\":\"Olá, não consigo\" , \"id\" : \"T-00042\",\"extra\":{\"a\":[1,2.50]}}\t";
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);

        TicketLine line = byField.parse(9, bytes).orElseThrow();

        assertThat(line.key()).isEqualTo("T-00042");
        assertThat(line.value()).isSameAs(bytes).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
        assertThat(line.text()).isEqualTo(text);
        assertThat(line.lineNumber()).isEqualTo(9);
    }

    @Test
    void shouldAcceptNumericId() {
        TicketLine line = parse(byField, 1, "{\"id\":12345,\"body\":\"b\"}");

        assertThat(line.valid()).isTrue();
        assertThat(line.key()).isEqualTo("12345");
    }

    @Test
    void shouldSkipBlankLines() {
        assertThat(byField.parse(1, "")).isEmpty();
        assertThat(byField.parse(2, "   \t \r")).isEmpty();
    }

    @Test
    void shouldReportNotJsonWithLineNumber() {
        TicketLine line = parse(byField, 17, "{\"id\": \"T-1\", \"body\": \"truncated");

        assertThat(line.valid()).isFalse();
        assertThat(line.problem()).isEqualTo("not JSON");
        assertThat(line.lineNumber()).isEqualTo(17);
        assertThat(line.key()).isEqualTo("line-17");
        assertThat(line.topic()).isEqualTo("tickets.standard");
    }

    @Test
    void shouldReportTrailingGarbageAsNotJson() {
        assertThat(parse(byField, 1, "{\"id\":\"T-1\",\"body\":\"b\"} {\"id\":\"T-2\"}").problem()).isEqualTo("not JSON");
        assertThat(parse(byField, 2, "hello world").problem()).isEqualTo("not JSON");
    }

    @Test
    void shouldReportInvalidUtf8AsNotJson() {
        byte[] bytes = {'{', '"', 'i', 'd', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};

        assertThat(byField.parse(3, bytes).orElseThrow().problem()).isEqualTo("not JSON");
    }

    @Test
    void shouldReportArraysAndScalarsAsNotAnObject() {
        assertThat(parse(byField, 1, "[{\"id\":\"T-1\",\"body\":\"b\"}]").problem()).isEqualTo("not a JSON object");
        assertThat(parse(byField, 2, "42").problem()).isEqualTo("not a JSON object");
        assertThat(parse(byField, 3, "null").problem()).isEqualTo("not a JSON object");
        assertThat(parse(byField, 4, "\"T-1\"").problem()).isEqualTo("not a JSON object");
    }

    @Test
    void shouldReportMissingOrUnusableId() {
        assertThat(parse(byField, 1, "{\"subject\":\"s\",\"body\":\"b\"}").problem()).isEqualTo("missing id");
        assertThat(parse(byField, 2, "{\"id\":null,\"body\":\"b\"}").problem()).isEqualTo("missing id");
        assertThat(parse(byField, 3, "{\"id\":\"  \",\"body\":\"b\"}").problem()).isEqualTo("blank id");
        assertThat(parse(byField, 4, "{\"id\":true,\"body\":\"b\"}").problem()).isEqualTo("id is not a string or number");
        assertThat(parse(byField, 5, "{\"id\":{\"v\":1},\"body\":\"b\"}").problem())
                .isEqualTo("id is not a string or number");
    }

    @Test
    void shouldRouteInvalidLinesToOverrideTopicUnderLineKey() {
        TicketLine line = parse(toBulk, 250, "{\"subject\":\"no id\",\"priority\":\"interactive\"}");

        assertThat(line.valid()).isFalse();
        assertThat(line.key()).isEqualTo("line-250");
        assertThat(line.topic()).isEqualTo("tickets.bulk");
    }

    @Test
    void shouldKeepTicketWithoutTextButWarn() {
        TicketLine line = parse(byField, 377, "{\"id\":\"T-EMPTY-1\",\"subject\":\" \",\"priority\":\"standard\"}");

        assertThat(line.valid()).isTrue();
        assertThat(line.key()).isEqualTo("T-EMPTY-1");
        assertThat(line.warnings()).containsExactly(TicketLineParser.NO_TEXT);
    }

    @Test
    void shouldAcceptTicketWithOnlySubjectOrOnlyBody() {
        assertThat(parse(byField, 1, "{\"id\":\"a\",\"subject\":\"s\"}").warnings()).isEmpty();
        assertThat(parse(byField, 2, "{\"id\":\"b\",\"body\":\"b\"}").warnings()).isEmpty();
    }
}
