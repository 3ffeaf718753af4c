package io.quotaflow.quota;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether a route configured with rate limits looks like a self-hosted engine, from its answers alone. */
class EngineSignalsTest {

    /** An engine saturating at 8: a call sent while {@code out} are out takes 500 ms × max(1, out / 8). */
    private static long engine(int out) {
        return Math.round(500 * Math.max(1.0, out / 8.0));
    }

    /** The first tick of a backlog: 16 calls out at once (1..16), answered without headers. */
    private static void firstTick(EngineSignals signals, long tokens) {
        for (int out = 1; out <= 16; out++) {
            signals.answered(out, tokens, engine(out));
        }
    }

    @Test
    void shouldFindAnEngineWhenNoHeadersAndLatencyRisesWithCallsInFlight() {
        EngineSignals signals = new EngineSignals();
        firstTick(signals, 400);
        assertThat(signals.looksLikeEngine()).isTrue();
        assertThat(signals.evidence()).contains("took 1.").contains("as long as those sent with");
        assertThat(signals.cap()).as("the latency limit bounds it from here").isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void shouldNotFindAnEngineWhenAnswersCarryRateLimitHeaders() {
        EngineSignals signals = new EngineSignals();
        signals.headers();
        firstTick(signals, 400);
        assertThat(signals.looksLikeEngine()).isFalse();
        assertThat(signals.cap()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void shouldDropTheVerdictWhenAnAnswerLaterCarriesHeaders() {
        EngineSignals signals = new EngineSignals();
        firstTick(signals, 400);
        signals.headers();
        assertThat(signals.looksLikeEngine()).isFalse();
        firstTick(signals, 400);
        assertThat(signals.looksLikeEngine()).isFalse();
    }

    @Test
    void shouldNotFindAnEngineWhoseLatencyIsFlatWithCallsInFlight() {
        EngineSignals signals = new EngineSignals();
        // a provider without headers (a proxy that strips them) that serves 16 at once as fast as one, ±10 %
        for (int out = 1; out <= 64; out++) {
            signals.answered(1 + (out - 1) % 16, 400, 500 + (out * 37 % 100) - 50);
        }
        assertThat(signals.looksLikeEngine()).isFalse();
        // meanwhile the calls out at most double what was seen: 16 were out with an answered call
        assertThat(signals.cap()).isEqualTo(32);
    }

    @Test
    void shouldCompareCallsOfSimilarSize() {
        EngineSignals signals = new EngineSignals();
        // few out: single-ticket calls of 400 tokens (200 ms); many out: full batches of 4 000 tokens (1.5 s), all unloaded
        for (int i = 0; i < 32; i++) {
            signals.answered(1 + i % 4, 400, 200);
            signals.answered(9 + i % 8, 4_000, 1_500);
        }
        assertThat(signals.looksLikeEngine()).as("larger calls are not slower calls").isFalse();
    }

    @Test
    void shouldHoldTheCallsOutUntilSomethingIsKnown() {
        EngineSignals signals = new EngineSignals();
        assertThat(signals.cap()).isEqualTo(EngineSignals.INITIAL_CAP);
        // nothing answered yet: doubling each second the first calls wait, as a slow provider's would
        assertThat(signals.cap(3_000)).isEqualTo(8 * EngineSignals.INITIAL_CAP);
        for (int i = 0; i < 8; i++) {
            signals.answered(12, 400, 500);
        }
        assertThat(signals.looksLikeEngine()).isFalse();
        assertThat(signals.cap()).isEqualTo(24);
        signals.headers();
        assertThat(signals.cap()).isEqualTo(Integer.MAX_VALUE);
    }
}
