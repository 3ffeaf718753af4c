package io.quotaflow.failure;

import io.quotaflow.settings.RetrySettings;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ScopeHealth#mode} is what the dispatch planner decides on, and the permit is taken only
 * after the call was admitted: so the mode must say exactly what the breaker will grant, after any
 * sequence of starts, answers (late ones too), 429s, halts and waits.
 */
class ScopeHealthModePropertiesTest {

    /** What happens next to the scope. */
    enum Event { START, SUCCEED, FAIL, RATE_LIMIT, HALT, SHORT_WAIT, LONG_WAIT }

    @Provide
    Arbitrary<List<Event>> lives() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Arbitraries.just(Event.START)),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(Event.SUCCEED)),
                net.jqwik.api.Tuple.of(4, Arbitraries.just(Event.FAIL)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Event.RATE_LIMIT)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Event.HALT)),
                net.jqwik.api.Tuple.of(3, Arbitraries.just(Event.SHORT_WAIT)),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(Event.LONG_WAIT)))
                .list().ofMinSize(10).ofMaxSize(200);
    }

    @Property(tries = 500)
    void shouldOfferExactlyThePermitsTheBreakerGrants(@ForAll("lives") List<Event> events) {
        ScopeHealth health = new ScopeHealth("s", RetrySettings.ofDefaults().withCircuitOpenWait(Duration.ofSeconds(2))
                .withHaltProbeInterval(Duration.ofSeconds(3)), (from, to) -> { });
        long now = 1_000;
        for (Event event : events) {
            switch (event) {
                case START -> {
                    ScopeHealth.Mode mode = health.mode(now);
                    assertThat(health.mode(now)).as("asking changes nothing").isEqualTo(mode);
                    assertThat(health.tryStart(now)).as("a start in mode %s at %d after %s", mode, now, events)
                            .isEqualTo(mode != ScopeHealth.Mode.BLOCKED);
                }
                case SUCCEED -> health.succeeded(now, 10);
                case FAIL -> health.failed(now, 10, "503");
                case RATE_LIMIT -> health.rateLimited(now);
                case HALT -> health.halt(now, "HTTP 401: invalid_api_key");
                case SHORT_WAIT -> now += 700;
                case LONG_WAIT -> now += 2_000;
            }
        }
    }
}
