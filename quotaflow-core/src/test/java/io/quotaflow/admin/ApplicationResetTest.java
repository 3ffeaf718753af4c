package io.quotaflow.admin;

import io.quotaflow.admin.ApplicationReset.InputOffsets;
import io.quotaflow.admin.ApplicationReset.OffsetMove;
import io.quotaflow.admin.ApplicationReset.Plan;
import io.quotaflow.admin.ApplicationReset.Request;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ApplicationResetTest {

    private static Request request(InputOffsets offsets, Path local) {
        return new Request("qf", new TreeSet<>(Set.of("qf-dispatch-repartition", "qf-qf-pending-changelog")),
                List.of("tickets.standard"), offsets, local);
    }

    @Test
    void shouldRefuseALocalStateDirectoryNotNamedAfterTheApplicationId() {
        assertThatThrownBy(() -> request(InputOffsets.KEEP, Path.of("/var/lib/quotaflow/state")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a directory named after the application id qf");
        assertThat(request(InputOffsets.KEEP, Path.of("/var/lib/quotaflow/state/qf")).localState()).hasFileName("qf");
        assertThat(request(InputOffsets.KEEP, null).localState()).isNull();
    }

    @Test
    void shouldPrintOneLinePerActionInOrder() {
        Plan plan = new Plan(request(InputOffsets.LATEST, Path.of("/s/qf")), 0, "Empty",
                new TreeSet<>(Set.of("qf-qf-pending-changelog", "qf-dispatch-repartition")),
                Set.of(new TopicPartition("qf-dispatch-repartition", 0), new TopicPartition("qf-dispatch-repartition", 1)),
                Map.of(new TopicPartition("tickets.standard", 1), new OffsetMove(-1, 7),
                        new TopicPartition("tickets.standard", 0), new OffsetMove(3, 9)), true);

        assertThat(plan.lines()).containsExactly(
                "delete topic qf-dispatch-repartition",
                "delete topic qf-qf-pending-changelog",
                "delete the committed offsets of group qf on 2 partition(s) of those topics",
                "move offset of tickets.standard-0 from 3 to 9 (latest)",
                "move offset of tickets.standard-1 from none to 7 (latest)",
                "delete local state /s/qf");
        assertThat(plan.nothingToDo()).isFalse();
        assertThat(plan.groupActive()).isFalse();
    }

    @Test
    void shouldHaveNothingToDoWhenNothingExists() {
        Plan empty = new Plan(request(InputOffsets.KEEP, Path.of("/s/qf")), 0, "none", new TreeSet<>(), Set.of(), Map.of(), false);
        Plan running = new Plan(request(InputOffsets.KEEP, null), 2, "Stable", new TreeSet<>(), Set.of(), Map.of(), false);

        assertThat(empty.nothingToDo()).isTrue();
        assertThat(empty.lines()).isEmpty();
        assertThat(running.groupActive()).isTrue();
    }
}
