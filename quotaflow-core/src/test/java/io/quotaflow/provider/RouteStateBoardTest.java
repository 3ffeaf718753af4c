package io.quotaflow.provider;

import io.quotaflow.testing.Fixtures;
import io.quotaflow.testkit.ManualTime;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one record of route health: its observed part (set by the start check, then by every call's answer)
 * and its published part (what the owning dispatcher says, for fallback choice), which do not read each other.
 */
class RouteStateBoardTest {

    @Test
    void shouldKeepAConnectionErrorUntilACallIsAnswered() {
        ManualTime now = new ManualTime(1_000);
        RouteStateBoard board = new RouteStateBoard(List.of("a", "b"), now);
        assertThat(board.allServe()).as("unchecked routes are taken as serving").isTrue();

        board.set("a", RouteState.unreachable("connection refused"), "provider check at start");
        now.setMs(5_000);
        board.heard(List.of("a"), Optional.empty(), "a call timed out");
        assertThat(board.state("a").text()).as("a timeout says nothing new").isEqualTo("unreachable: connection refused");
        assertThat(board.entries().get("a").since()).isEqualTo(1_000);
        assertThat(board.allServe()).isFalse();

        board.heard(List.of("a", "b"), Optional.of(RouteState.OK), "a call was answered");
        assertThat(board.state("a")).isEqualTo(RouteState.OK);
        assertThat(board.state("b")).isEqualTo(RouteState.OK);
        assertThat(board.entries().get("a").since()).isEqualTo(5_000);
        assertThat(board.allServe()).isTrue();
        assertThat(board.state("unknown")).isEqualTo(RouteState.UNCHECKED);
    }

    @Test
    void shouldKeepWhatOwnersPublishApartFromWhatCallsObserved() {
        ManualTime now = new ManualTime(1_000);
        RouteStateBoard board = new RouteStateBoard(List.of("a", "b"), now);
        assertThat(board.usable("a")).as("a route no owner here published is taken as usable").isTrue();
        assertThat(board.usable("unknown")).isTrue();

        board.set("a", RouteState.unreachable("connection refused"), "provider check at start");
        assertThat(board.usable("a")).as("what calls observed does not decide fallbacks").isTrue();

        board.publish(List.of(Fixtures.route("b", 128_000, List.of(), null)), false);
        assertThat(board.usable("b")).as("the owner says it cannot serve").isFalse();
        assertThat(board.state("b")).as("what the owner publishes is not shown as an observed state").isEqualTo(RouteState.UNCHECKED);

        board.publish(List.of(Fixtures.route("b", 128_000, List.of(), null)), true);
        assertThat(board.usable("b")).isTrue();
        assertThat(board.state("a").text()).isEqualTo("unreachable: connection refused");
    }
}
