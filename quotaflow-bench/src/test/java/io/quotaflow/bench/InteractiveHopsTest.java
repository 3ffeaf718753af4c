package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class InteractiveHopsTest {

    @Test
    void shouldSplitATicketsTimeIntoItsHops() {
        // published at 1 000; intake 1 030; on the lane 1 100; at the dispatcher 1 110; sent 1 130; a 400 ms call;
        // written 1 560; readable 1 600
        Map<String, Long> published = Map.of("I-1", 1_000L);
        Map<String, ResultTimes> times = Map.of("I-1", new ResultTimes(1_560, 400, 1_030));
        Map<String, LaneWatch.Seen> seen = Map.of("I-1", new LaneWatch.Seen(1_100, 1_600, 1_130, 1_110));

        InteractiveHops hops = InteractiveHops.of(published, times, seen);

        assertThat(hops.samples(InteractiveHops.Hop.INTAKE)).containsExactly(30L);
        assertThat(hops.samples(InteractiveHops.Hop.LANE)).containsExactly(70L);
        assertThat(hops.samples(InteractiveHops.Hop.FETCH)).containsExactly(10L);
        assertThat(hops.samples(InteractiveHops.Hop.DISPATCH)).containsExactly(20L);
        assertThat(hops.samples(InteractiveHops.Hop.CALL)).containsExactly(400L);
        assertThat(hops.samples(InteractiveHops.Hop.APPLY)).containsExactly(30L);
        assertThat(hops.samples(InteractiveHops.Hop.RESULT)).containsExactly(40L);
        assertThat(hops.samples(InteractiveHops.Hop.TOTAL)).containsExactly(600L);
    }

    @Test
    void shouldLeaveOutAHopWhoseEndWasNotSeenAndSaySoInItsLine() {
        Map<String, Long> published = new LinkedHashMap<>();
        published.put("I-1", 1_000L);
        published.put("I-2", 2_000L);
        Map<String, ResultTimes> times = Map.of("I-1", new ResultTimes(1_560, 400, 1_030), "I-2", new ResultTimes(2_700, 500, 2_050));
        // I-2's result carried no qf.sent-at: its dispatch, call and apply hops are unknown
        Map<String, LaneWatch.Seen> seen = Map.of("I-1", new LaneWatch.Seen(1_100, 1_600, 1_130, 1_110),
                "I-2", new LaneWatch.Seen(2_100, 2_750, 0, 0));

        InteractiveHops hops = InteractiveHops.of(published, times, seen);

        assertThat(hops.samples(InteractiveHops.Hop.CALL)).containsExactly(400L);
        assertThat(hops.samples(InteractiveHops.Hop.TOTAL)).containsExactly(600L, 750L);
        assertThat(hops.percentile(InteractiveHops.Hop.TOTAL, 99)).isEqualTo(750);
        assertThat(hops.describe(2)).contains("the call 400 / 400 (1 of 2)").contains("publish → result readable 600 / 750");
    }
}
