package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.local.KeywordClassifier;
import io.quotaflow.publish.TicketLine;
import io.quotaflow.publish.TicketLineParser;
import io.quotaflow.ticket.Json;
import io.quotaflow.ticket.Priority;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TicketGeneratorTest {

    private static final int N = 1_000;
    private static List<GeneratedTicket> tickets;
    /** What the simulator's keyword classifier reads in each ticket, by index. */
    private static List<KeywordClassifier.Result> read;

    @BeforeAll
    static void generate() {
        tickets = new TicketGenerator(42).generate(N);
        KeywordClassifier classifier = new KeywordClassifier();
        read = tickets.stream().map(t -> classifier.classify(t.subject(), t.body())).toList();
    }

    @Test
    void shouldBeDeterministicPerSeedAndPrefixStable() {
        List<GeneratedTicket> again = new TicketGenerator(42).generate(N);
        assertThat(again).isEqualTo(tickets);
        assertThat(new TicketGenerator(42).generate(100)).isEqualTo(tickets.subList(0, 100));
        assertThat(new TicketGenerator(42).ticket(567)).isEqualTo(tickets.get(567));

        List<GeneratedTicket> other = new TicketGenerator(43).generate(100);
        long sameBody = java.util.stream.IntStream.range(0, 100).filter(i -> other.get(i).body().equals(tickets.get(i).body())).count();
        assertThat(sameBody).isLessThan(5);
    }

    @Test
    void shouldHaveUniqueSequentialIds() {
        Set<String> ids = new HashSet<>();
        tickets.forEach(t -> ids.add(t.id()));
        assertThat(ids).hasSize(N);
        assertThat(tickets.get(0).id()).isEqualTo("BT-000001");
        assertThat(tickets.get(N - 1).id()).isEqualTo("BT-001000");
    }

    @Test
    void shouldHaveAHeavyTailOfAboutFivePercentLongBodies() {
        long longOnes = tickets.stream().filter(GeneratedTicket::isLong).count();
        assertThat(longOnes / (double) N).isCloseTo(0.05, within(0.015));
        assertThat(tickets).allSatisfy(t -> {
            int length = t.body().length();
            if (t.isLong()) {
                assertThat(length).isBetween(TicketGenerator.LONG_MIN_CHARS, TicketGenerator.LONG_MAX_CHARS);
            } else {
                assertThat(length).isBetween(TicketGenerator.SHORT_MIN_CHARS, TicketGenerator.SHORT_MAX_CHARS);
            }
        });
        // the short ones spread over their range rather than bunching at one size
        long under400 = tickets.stream().filter(t -> !t.isLong() && t.body().length() < 400).count();
        long over600 = tickets.stream().filter(t -> !t.isLong() && t.body().length() > 600).count();
        assertThat(under400).isGreaterThan(N / 10);
        assertThat(over600).isGreaterThan(N / 10);
        // the long ones too
        long over4000 = tickets.stream().filter(t -> t.body().length() > 4_000).count();
        assertThat(over4000).isPositive().isLessThan(longOnes);
    }

    @Test
    void shouldMixEnglishAndPortuguese() {
        Map<String, Long> languages = share(GeneratedTicket::language);
        assertThat(languages.keySet()).containsExactlyInAnyOrder("en", "pt");
        assertThat(languages.get("pt") / (double) N).isBetween(0.35, 0.55);
        // the Portuguese ones really are
        assertThat(tickets.stream().filter(t -> t.language().equals("pt")).limit(200)
                .allMatch(t -> t.body().matches("(?s).*[ãçéêáíóõú].*"))).isTrue();
    }

    @Test
    void shouldMixPrioritiesTenantsCategoriesAndUrgencies() {
        Map<Priority, Long> priorities = tickets.stream().collect(Collectors.groupingBy(GeneratedTicket::priority, Collectors.counting()));
        assertThat(priorities.get(Priority.INTERACTIVE) / (double) N).isCloseTo(0.10, within(0.03));
        assertThat(priorities.get(Priority.STANDARD) / (double) N).isCloseTo(0.50, within(0.04));
        assertThat(priorities.get(Priority.BULK) / (double) N).isCloseTo(0.40, within(0.04));

        assertThat(share(GeneratedTicket::tenant)).hasSizeGreaterThanOrEqualTo(5);
        Map<String, Long> categories = share(t -> t.label().category());
        assertThat(categories.keySet()).containsExactlyInAnyOrderElementsOf(TicketGenerator.CATEGORIES);
        assertThat(categories.get("other") / (double) N).isCloseTo(0.10, within(0.03));
        Map<String, Long> urgencies = share(t -> t.label().urgency());
        assertThat(urgencies.keySet()).containsExactlyInAnyOrderElementsOf(TicketGenerator.URGENCIES);
        assertThat(urgencies.get("critical") / (double) N).isCloseTo(0.10, within(0.03));
    }

    @Test
    void shouldWriteTicketJsonWithoutTheLabelThatThePublisherAccepts() throws Exception {
        TicketLineParser parser = new TicketLineParser(Optional.empty());
        for (GeneratedTicket t : tickets.subList(0, 300)) {
            String json = t.toJson();
            assertThat(json).doesNotContain("\n");
            JsonNode node = Json.MAPPER.readTree(json);
            assertThat(node.get("id").asText()).isEqualTo(t.id());
            assertThat(node.get("body").asText()).isEqualTo(t.body());
            assertThat(node.get("tenant").asText()).isEqualTo(t.tenant());
            assertThat(node.get("priority").asText()).isEqualTo(t.priority().wireName());
            assertThat(node.has("category")).isFalse();
            assertThat(node.has("urgency")).isFalse();
            assertThat(json).doesNotContain("\"label\"");

            TicketLine line = parser.parse(1, json).orElseThrow();
            assertThat(line.valid()).isTrue();
            assertThat(line.warnings()).isEmpty();
            assertThat(line.key()).isEqualTo(t.id());
            assertThat(line.priority()).isEqualTo(t.priority());
        }
        String lines = new String(TicketGenerator.jsonLines(tickets.subList(0, 10)), StandardCharsets.UTF_8);
        assertThat(lines.split("\n")).hasSize(10);
        assertThat(TicketGenerator.labels(tickets.subList(0, 10))).hasSize(10).containsEntry(tickets.get(3).id(), tickets.get(3).label());
    }

    @Test
    void shouldMostlyButNotAlwaysBeReadRightByTheKeywordClassifier() {
        int category = 0;
        int urgency = 0;
        for (int i = 0; i < N; i++) {
            category += read.get(i).category().equals(tickets.get(i).label().category()) ? 1 : 0;
            urgency += read.get(i).urgency().equals(tickets.get(i).label().urgency()) ? 1 : 0;
        }
        assertThat(category / (double) N).isBetween(0.85, 0.99);
        assertThat(urgency / (double) N).isBetween(0.85, 0.99);
    }

    @Test
    void shouldBeReadRightMostOfTheTimeInEveryCategoryAndLanguage() {
        // the misreadings come from the confusers, spread over categories and languages
        for (String language : List.of("en", "pt")) {
            for (String cat : TicketGenerator.CATEGORIES) {
                int n = 0;
                int right = 0;
                for (int i = 0; i < N; i++) {
                    GeneratedTicket t = tickets.get(i);
                    if (t.language().equals(language) && t.label().category().equals(cat)) {
                        n++;
                        right += read.get(i).category().equals(cat) ? 1 : 0;
                    }
                }
                assertThat(n).as(language + "/" + cat).isGreaterThan(20);
                assertThat(right / (double) n).as(language + "/" + cat).isGreaterThan(0.65);
            }
        }
    }

    private static <K> Map<K, Long> share(Function<GeneratedTicket, K> key) {
        return tickets.stream().collect(Collectors.groupingBy(key, Collectors.counting()));
    }
}
