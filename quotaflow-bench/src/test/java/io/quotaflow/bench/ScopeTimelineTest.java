package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class ScopeTimelineTest {

    /** Samples every 100 ms from t=0: requests 0, 1, 1, 2, 2, 2, 3 and 100 tokens a request. */
    private static ScopeTimeline timeline() {
        ScopeTimeline t = new ScopeTimeline();
        long[] requests = {0, 1, 1, 2, 2, 2, 3};
        for (int i = 0; i < requests.length; i++) {
            t.add(i * 100L, requests[i], requests[i] * 100);
        }
        return t;
    }

    @Test
    void shouldTakeTheSampleThatFirstShowsAnAdmissionAsItsTime() {
        ScopeTimeline t = timeline();
        assertThat(t.firstAdmissionMs()).hasValue(100);
        assertThat(t.lastAdmissionMs()).hasValue(600);
        assertThat(t.firstAdmissionAfter(150)).hasValue(300);
        assertThat(t.firstAdmissionAfter(300)).hasValue(600);
        assertThat(t.firstAdmissionAfter(600)).isEqualTo(OptionalLong.empty());
    }

    @Test
    void shouldCountTokensBetweenTwoTimesAsTheStepOfTheSampledCounts() {
        ScopeTimeline t = timeline();
        assertThat(t.tokensAt(-1)).isZero();
        assertThat(t.tokensAt(250)).isEqualTo(100);
        assertThat(t.tokensBetween(-1, 600)).isEqualTo(300);
        assertThat(t.tokensBetween(250, 350)).isEqualTo(100);
        assertThat(t.tokensBetween(350, 250)).isZero();
        assertThat(t.requestsAt(10_000)).isEqualTo(3);
    }

    @Test
    void shouldKnowNothingOfAScopeThatNeverAdmitted() {
        ScopeTimeline t = new ScopeTimeline();
        t.add(0, 0, 0);
        t.add(100, 0, 0);
        assertThat(t.firstAdmissionMs()).isEmpty();
        assertThat(t.lastAdmissionMs()).isEmpty();
        assertThat(t.firstAdmissionAfter(0)).isEmpty();
    }
}
