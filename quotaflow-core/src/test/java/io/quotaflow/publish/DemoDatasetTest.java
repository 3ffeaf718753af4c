package io.quotaflow.publish;

import io.quotaflow.testkit.DemoDataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class DemoDatasetTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern PORTUGUESE = Pattern.compile(
            "(?iu)(?<![\\p{L}])(não|você|obrigad[oa]|pedido|minha|conta|está|preciso|olá|cobrança|entrega)(?![\\p{L}])");
    private static final Pattern ENGLISH = Pattern.compile(
            "(?i)\\b(the|my|please|order|account|thanks|can't|charged)\\b");

    private static List<String> lines;
    private static List<JsonNode> tickets; // valid: JSON object with id and subject/body

    @BeforeAll
    static void load() throws IOException {
        lines = new ArrayList<>();
        try (InputStream in = DemoDataset.openTickets();
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
            }
        }
        tickets = new ArrayList<>();
        for (String line : lines) {
            JsonNode node = tryParse(line);
            if (node != null && node.isObject() && node.hasNonNull("id")
                    && (hasText(node, "subject") || hasText(node, "body"))) {
                tickets.add(node);
            }
        }
    }

    private static JsonNode tryParse(String line) {
        try {
            return MAPPER.readTree(line);
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean hasText(JsonNode node, String field) {
        return node.hasNonNull(field) && !node.get(field).asText().isBlank();
    }

    private static String text(JsonNode ticket) {
        return ticket.path("subject").asText("") + "\n" + ticket.path("body").asText("");
    }

    @Test
    void shouldHaveAboutFiveHundredLines() {
        assertThat(lines).hasSizeBetween(480, 520);
        assertThat(lines).noneMatch(String::isBlank);
    }

    @Test
    void shouldHaveExactlyFourMalformedLines() {
        TicketLineParser parser = new TicketLineParser();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            TicketLine line = parser.parse(i + 1, lines.get(i)).orElseThrow();
            if (!line.valid()) {
                problems.add(line.problem());
            } else if (!line.warnings().isEmpty()) {
                problems.addAll(line.warnings());
            }
        }

        assertThat(problems).containsExactlyInAnyOrder(
                TicketLineParser.NOT_JSON + ": Unexpected end-of-input in VALUE_STRING", TicketLineParser.NOT_AN_OBJECT,
                TicketLineParser.MISSING_ID, TicketLineParser.NO_TEXT);
        assertThat(lines.size() - tickets.size()).isEqualTo(4);
    }

    @Test
    void shouldHaveExactlyOneTicketOverHalfAMillionCharacters() {
        List<String> huge = lines.stream().filter(l -> l.length() > 500_000).toList();

        assertThat(huge).hasSize(1);
        assertThat(tryParse(huge.get(0)).get("id").asText()).isEqualTo(DemoDataset.HUGE_TICKET_ID);
        assertThat(tryParse(huge.get(0)).get("body").asText().length()).isBetween(600_000, 800_000);
    }

    @Test
    void shouldStayUnderOneAndAHalfMegabytes() throws IOException {
        try (InputStream in = DemoDataset.openTickets()) {
            assertThat(in.readAllBytes().length).isLessThan(1_500_000);
        }
    }

    @Test
    void shouldUseAllThreePrioritiesInRoughProportion() {
        Map<String, Long> counts = tickets.stream()
                .collect(Collectors.groupingBy(t -> t.path("priority").asText(), Collectors.counting()));

        assertThat(counts).containsOnlyKeys("interactive", "standard", "bulk");
        double n = tickets.size();
        assertThat(counts.get("interactive") / n).isBetween(0.10, 0.20);
        assertThat(counts.get("standard") / n).isBetween(0.38, 0.52);
        assertThat(counts.get("bulk") / n).isBetween(0.33, 0.47);
    }

    @Test
    void shouldMixEnglishAndPortuguese() {
        long portuguese = tickets.stream().filter(t -> PORTUGUESE.matcher(text(t)).find()).count();
        long english = tickets.stream()
                .filter(t -> !PORTUGUESE.matcher(text(t)).find() && ENGLISH.matcher(text(t)).find()).count();

        assertThat(portuguese / (double) tickets.size()).isBetween(0.25, 0.45);
        assertThat(english / (double) tickets.size()).isBetween(0.55, 0.75);
    }

    @Test
    void shouldHaveRealisticFieldsAndLengths() {
        Set<String> tenants = new HashSet<>();
        long withMetadata = 0;
        long longBodies = 0;
        long normalBodies = 0;
        for (JsonNode t : tickets) {
            assertThat(t.get("id").asText()).matches("T-(\\d{5}|HUGE-1)");
            assertThat(t.get("submittedAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
            tenants.add(t.get("tenant").asText());
            if (t.has("metadata")) {
                withMetadata++;
                assertThat(t.get("metadata").has("channel")).isTrue();
            }
            int len = t.path("body").asText("").length();
            if (len >= 2000 && len <= 6000) {
                longBodies++;
            } else if (len >= 150 && len <= 800) {
                normalBodies++;
            }
        }
        assertThat(tenants).hasSizeBetween(8, 12).contains("acme", "globex", "lojas-sol");
        assertThat(withMetadata).isBetween(tickets.size() / 4L, tickets.size() * 3L / 4);
        assertThat(longBodies / (double) tickets.size()).isBetween(0.03, 0.08);
        assertThat(normalBodies / (double) tickets.size()).isGreaterThan(0.85);
    }

    @Test
    void shouldHaveUniqueIds() {
        List<String> ids = tickets.stream().map(t -> t.get("id").asText()).toList();

        assertThat(ids).doesNotHaveDuplicates();
    }

    @Test
    void shouldLabelEveryValidTicketFromTheClosedSets() {
        Map<String, DemoDataset.Label> labels = DemoDataset.labels();
        Set<String> ids = tickets.stream().map(t -> t.get("id").asText()).collect(Collectors.toSet());

        assertThat(labels.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(labels.values()).allSatisfy(label -> {
            assertThat(label.category()).isIn("billing", "technical", "account", "shipping", "other");
            assertThat(label.urgency()).isIn("low", "medium", "high", "critical");
        });
        Set<String> categories = labels.values().stream().map(DemoDataset.Label::category).collect(Collectors.toSet());
        Set<String> urgencies = labels.values().stream()
                .map(l -> l.urgency().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        assertThat(categories).hasSize(5);
        assertThat(urgencies).hasSize(4);
    }
}
