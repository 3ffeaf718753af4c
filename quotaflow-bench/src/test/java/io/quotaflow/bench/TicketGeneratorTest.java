package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.simulator.KeywordClassifier;
import io.quotaflow.publish.TicketLine;
import io.quotaflow.publish.TicketLineParser;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
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
            assertThat(line.key()).isEqualTo(io.quotaflow.records.TicketKey.key(t.tenant(), t.id()));
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

    @Test
    void shouldKeepTheDefaultMixByteForByte() throws Exception {
        // SHA-256 of the JSON lines of the first 1 000 tickets of seeds 42 and 7, as generated before huge tickets existed
        assertThat(sha256(TicketGenerator.jsonLines(tickets))).isEqualTo("a76691ce293c28c20780cde9b81d9ed6480f26800c02c7f34fd8508cbd0dc07a");
        assertThat(sha256(TicketGenerator.jsonLines(new TicketGenerator(7).generate(N))))
                .isEqualTo("3180107afa1f6a12504fa512f27a3c47b48f4ed3bf7e0029372103314096b2a5");
        assertThat(new TicketGenerator(42, 0).generate(N)).isEqualTo(tickets);
        assertThat(tickets).noneMatch(GeneratedTicket::isHuge);
    }

    @Test
    void shouldMakeAShareOfHugeTicketsAndLeaveTheOthersAsTheyWere() {
        int n = 4_000;
        List<GeneratedTicket> plain = new TicketGenerator(42).generate(n);
        List<GeneratedTicket> mixed = new TicketGenerator(42, 0.005).generate(n);
        long huge = mixed.stream().filter(GeneratedTicket::isHuge).count();
        assertThat(huge).isBetween(8L, 35L);
        for (int i = 0; i < n; i++) {
            GeneratedTicket m = mixed.get(i);
            if (m.isHuge()) {
                assertThat(m.body().length()).isBetween(TicketGenerator.HUGE_MIN_CHARS, TicketGenerator.HUGE_MAX_CHARS);
                assertThat(m.isLong()).isTrue();
                assertThat(m.id()).isEqualTo(plain.get(i).id());
                assertThat(m.label()).isEqualTo(plain.get(i).label());
            } else {
                assertThat(m).isEqualTo(plain.get(i));
            }
        }
        // deterministic, prefix-stable, and each huge ticket still carries its meaning up front
        assertThat(new TicketGenerator(42, 0.005).generate(1_000)).isEqualTo(mixed.subList(0, 1_000));
        KeywordClassifier classifier = new KeywordClassifier();
        long right = mixed.stream().filter(GeneratedTicket::isHuge)
                .filter(t -> classifier.classify(t.subject(), t.body()).category().equals(t.label().category())).count();
        assertThat(right).isGreaterThan(huge / 2);
        assertThat(new TicketGenerator(1, 1.0).generate(3)).allMatch(GeneratedTicket::isHuge);
    }

    @Test
    void shouldRejectAShareOutsideZeroToOne() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TicketGenerator(1, 1.5))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TicketGenerator(1, -0.1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static String sha256(byte[] bytes) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (byte b : java.security.MessageDigest.getInstance("SHA-256").digest(bytes)) {
            sb.append(String.format("%02x", b));
        }
        return sb.toString();
    }

    private static <K> Map<K, Long> share(Function<GeneratedTicket, K> key) {
        return tickets.stream().collect(Collectors.groupingBy(key, Collectors.counting()));
    }
}
