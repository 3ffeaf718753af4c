package io.quotaflow.dlq;

import io.quotaflow.settings.TopicNames;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplayOptionsTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void shouldParseInstantsOffsetsAndDates() {
        assertThat(ReplayArguments.parseTime("2026-11-30T06:00:00Z", NOW)).isEqualTo(Instant.parse("2026-11-30T06:00:00Z"));
        assertThat(ReplayArguments.parseTime(" 2026-11-30T06:00:00.250Z ", NOW))
                .isEqualTo(Instant.parse("2026-11-30T06:00:00.250Z"));
        assertThat(ReplayArguments.parseTime("2026-11-30T07:00:00+01:00", NOW)).isEqualTo(Instant.parse("2026-11-30T06:00:00Z"));
        assertThat(ReplayArguments.parseTime("2026-11-30", NOW)).isEqualTo(Instant.parse("2026-11-30T00:00:00Z"));
    }

    @Test
    void shouldParseDurationsAgo() {
        assertThat(ReplayArguments.parseTime("15m", NOW)).isEqualTo(NOW.minus(Duration.ofMinutes(15)));
        assertThat(ReplayArguments.parseTime("2h", NOW)).isEqualTo(NOW.minus(Duration.ofHours(2)));
        assertThat(ReplayArguments.parseTime("1d", NOW)).isEqualTo(NOW.minus(Duration.ofDays(1)));
        assertThat(ReplayArguments.parseTime("1w", NOW)).isEqualTo(NOW.minus(Duration.ofDays(7)));
        assertThat(ReplayArguments.parseTime("90s", NOW)).isEqualTo(NOW.minusSeconds(90));
        assertThat(ReplayArguments.parseTime("500ms", NOW)).isEqualTo(NOW.minusMillis(500));
        assertThat(ReplayArguments.parseTime("1h30m", NOW)).isEqualTo(NOW.minus(Duration.ofMinutes(90)));
        assertThat(ReplayArguments.parseTime("2H", NOW)).isEqualTo(NOW.minus(Duration.ofHours(2)));
        assertThat(ReplayArguments.parseTime("PT30M", NOW)).isEqualTo(NOW.minus(Duration.ofMinutes(30)));
        assertThat(ReplayArguments.parseTime("pt30m", NOW)).isEqualTo(NOW.minus(Duration.ofMinutes(30)));
        assertThat(ReplayArguments.parseTime("P1D", NOW)).isEqualTo(NOW.minus(Duration.ofDays(1)));
        assertThat(ReplayArguments.parseTime("P1DT2H", NOW)).isEqualTo(NOW.minus(Duration.ofHours(26)));
    }

    @Test
    void shouldRejectWhatIsNeitherATimeNorADuration() {
        for (String bad : List.of("", "yesterday", "15", "15 m", "-15m", "-PT1H", "2026-11-30T06:00:00", "m15",
                "2026-13-01", "PT", "99999999999999999999d")) {
            assertThatThrownBy(() -> ReplayArguments.parseTime(bad, NOW)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> ReplayArguments.parseTime("soon", NOW)).hasMessageContaining("2026-11-30T06:00:00Z")
                .hasMessageContaining("15m");
    }

    @Test
    void shouldSplitRepeatedAndCommaSeparatedValues() {
        assertThat(ReplayArguments.splitList(List.of("retries-exhausted,bad-input", " too-large ", "bad-input", ",,")))
                .containsExactly("retries-exhausted", "bad-input", "too-large");
        assertThat(ReplayArguments.splitList(Arrays.asList("503", null, "529, 500"))).containsExactly("503", "529", "500");
        assertThat(ReplayArguments.splitList(null)).isEmpty();
    }

    @Test
    void shouldHaveTheDocumentedDefaults() {
        ReplayOptions o = ReplayOptions.builder().build();
        assertThat(o.since()).isNull();
        assertThat(o.until()).isNull();
        assertThat(o.kinds()).isEmpty();
        assertThat(o.dryRun()).isFalse();
        assertThat(o.ratePerSecond()).as("unthrottled: the pipeline's limiter paces the calls").isZero();
        assertThat(o.force()).isFalse();
        assertThat(o.groupId()).isEqualTo("quotaflow-dlq-replay");
        assertThat(o.transactionalId()).isEqualTo("quotaflow-dlq-replay-quotaflow-dlq-replay");
        assertThat(o.maxReplays()).isEqualTo(3);
        assertThat(o.reset()).isFalse();
        assertThat(o.maxRecords()).isEqualTo(Long.MAX_VALUE);
        assertThat(o.dlqTopic()).isEqualTo("tickets.dlq");
        assertThat(o.filtered()).isFalse();
        assertThat(o.describeFilters()).isEqualTo("none");
        assertThat(o.toBuilder().build()).isEqualTo(o);
        assertThat(o.toBuilder().force(true).build().toBuilder().build().force()).isTrue();
        assertThat(ReplayOptions.builder().groupId("g").build().transactionalId()).isEqualTo("quotaflow-dlq-replay-g");
    }

    @Test
    void shouldDefaultTheGroupUnderTheTopicsPrefix() {
        ReplayOptions prefixed = ReplayOptions.builder().dlqTopic("team-a.tickets.dlq").build();
        assertThat(prefixed.groupId()).isEqualTo("team-a.quotaflow-dlq-replay");
        assertThat(prefixed.transactionalId()).isEqualTo("quotaflow-dlq-replay-team-a.quotaflow-dlq-replay");
        assertThat(ReplayOptions.builder().dlqTopic("team-b.tickets.dlq").build().transactionalId())
                .as("two deployments on one cluster never fence each other's replays")
                .isNotEqualTo(prefixed.transactionalId());
        assertThat(ReplayOptions.defaultGroup(new TopicNames("team-a."))).isEqualTo("team-a.quotaflow-dlq-replay");
        assertThat(ReplayOptions.defaultGroup(TopicNames.DEFAULT)).isEqualTo("quotaflow-dlq-replay");
        assertThat(ReplayOptions.builder().dlqTopic("some.other.topic").build().groupId())
                .as("no deployment's dead-letter topic: the unprefixed default").isEqualTo("quotaflow-dlq-replay");
        assertThat(ReplayOptions.builder().dlqTopic("team-a.tickets.dlq").groupId("ops").build().groupId())
                .as("an explicit group wins").isEqualTo("ops");
        assertThat(prefixed.toBuilder().build()).isEqualTo(prefixed);
    }

    @Test
    void shouldValidate() {
        Instant t = NOW;
        assertThatThrownBy(() -> ReplayOptions.builder().since(t).until(t).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before");
        assertThatThrownBy(() -> ReplayOptions.builder().since(t).until(t.minusSeconds(1)).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReplayOptions.builder().ratePerSecond(-1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rate");
        assertThatThrownBy(() -> ReplayOptions.builder().ratePerSecond(Double.NaN).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReplayOptions.builder().maxReplays(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max-replays");
        assertThatThrownBy(() -> ReplayOptions.builder().maxRecords(0).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReplayOptions.builder().groupId(" ").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("group");
        assertThatThrownBy(() -> ReplayOptions.builder().statuses("503", "five hundred").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("five hundred");
        assertThatThrownBy(() -> ReplayOptions.builder().kinds(" ").build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ReplayOptions.builder().ratePerSecond(0).build().ratePerSecond()).isZero();
        assertThat(ReplayOptions.builder().kinds(" bad-input ").build().kinds()).containsExactly("bad-input");
    }

    @Test
    void shouldMatchOnTimeKindStatusAndKey() {
        Instant since = Instant.parse("2026-11-30T06:00:00Z");
        Instant until = Instant.parse("2026-11-30T07:00:00Z");
        ReplayOptions o = ReplayOptions.builder().since(since).until(until).kinds("retries-exhausted", "too-large")
                .statuses("503", "529").keys("T-1", "T-2").build();
        long in = since.plusSeconds(60).toEpochMilli();

        assertThat(o.matches(in, "retries-exhausted", "503", "T-1")).isTrue();
        assertThat(o.matches(since.toEpochMilli(), "retries-exhausted", "503", "T-1")).as("since is inclusive").isTrue();
        assertThat(o.matches(until.toEpochMilli(), "retries-exhausted", "503", "T-1")).as("until is exclusive").isFalse();
        assertThat(o.matches(since.toEpochMilli() - 1, "retries-exhausted", "503", "T-1")).isFalse();
        assertThat(o.matches(in, "bad-input", "503", "T-1")).isFalse();
        assertThat(o.matches(in, null, "503", "T-1")).isFalse();
        assertThat(o.matches(in, "too-large", "500", "T-1")).isFalse();
        assertThat(o.matches(in, "too-large", null, "T-1")).isFalse();
        assertThat(o.matches(in, "too-large", " 529 ", "T-2")).isTrue();
        assertThat(o.matches(in, "too-large", "529", "T-3")).isFalse();
        assertThat(o.matches(in, "too-large", "529", null)).isFalse();
        assertThat(o.filtered()).isTrue();
        assertThat(o.describeFilters()).isEqualTo("since 2026-11-30T06:00:00Z, until 2026-11-30T07:00:00Z, "
                + "kind in [retries-exhausted, too-large], status in [503, 529], 2 keys");

        ReplayOptions none = ReplayOptions.builder().build();
        assertThat(none.matches(-1, null, null, null)).isTrue();
        assertThat(ReplayOptions.builder().keys(Set.of("T-9")).build().describeFilters()).isEqualTo("key T-9");
    }
}
