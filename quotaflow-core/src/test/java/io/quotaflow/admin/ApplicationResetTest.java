package io.quotaflow.admin;

import io.quotaflow.admin.ApplicationReset.Group;
import io.quotaflow.admin.ApplicationReset.InputOffsets;
import io.quotaflow.admin.ApplicationReset.OffsetMove;
import io.quotaflow.admin.ApplicationReset.Plan;
import io.quotaflow.admin.ApplicationReset.Request;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsResult;
import org.apache.kafka.clients.admin.DescribeStreamsGroupsResult;
import org.apache.kafka.clients.admin.MemberAssignment;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberAssignment;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;

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
        Plan plan = new Plan(request(InputOffsets.LATEST, Path.of("/s/qf")), new Group("consumer group", 0, "Empty", null),
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
        Plan empty = new Plan(request(InputOffsets.KEEP, Path.of("/s/qf")), Group.none(null), new TreeSet<>(), Set.of(), Map.of(), false);
        Plan running = new Plan(request(InputOffsets.KEEP, null), new Group("streams group", 2, "Stable", null), new TreeSet<>(), Set.of(),
                Map.of(), false);

        assertThat(empty.nothingToDo()).isTrue();
        assertThat(empty.lines()).isEmpty();
        assertThat(running.groupActive()).isTrue();
        assertThat(running.running()).isEqualTo("streams group qf has 2 member(s) (Stable)");
    }

    @Test
    void shouldCountTheMembersOfAStreamsGroupWhichTheConsumerGroupViewDoesNotShow() throws Exception {
        // what a Kafka 4.4 broker answers for a running streams group
        FakeGroups groups = new FakeGroups(KafkaFuture.completedFuture(streams(GroupState.STABLE, 2)),
                failed(new GroupIdNotFoundException("Group qf is not a consumer group.")));

        Group group = new ApplicationReset(groups.admin(), Duration.ofSeconds(1)).group("qf");

        assertThat(group).isEqualTo(new Group("streams group", 2, "Stable", null));
    }

    @Test
    void shouldTakeAnEmptyStreamsGroupAsExistingWithoutMembers() throws Exception {
        FakeGroups groups = new FakeGroups(KafkaFuture.completedFuture(streams(GroupState.EMPTY, 0)),
                failed(new GroupIdNotFoundException("Group qf is not a consumer group.")));

        Group group = new ApplicationReset(groups.admin(), Duration.ofSeconds(1)).group("qf");

        assertThat(group.kind()).isEqualTo("streams group");
        assertThat(group.members()).isZero();
        assertThat(group.exists()).as("its committed offsets are read and removed").isTrue();
    }

    @Test
    void shouldCountAConsumerGroupsMembersWhenNoStreamsGroupHasTheId() throws Exception {
        FakeGroups groups = new FakeGroups(failed(new GroupIdNotFoundException("Group qf is not a streams group.")),
                KafkaFuture.completedFuture(consumer(GroupState.STABLE, 1)));

        Group group = new ApplicationReset(groups.admin(), Duration.ofSeconds(1)).group("qf");

        assertThat(group).isEqualTo(new Group("consumer group", 1, "Stable", null));
    }

    @Test
    void shouldFallBackToTheConsumerGroupViewWithANoteOnAClusterWithoutStreamsGroups() throws Exception {
        FakeGroups groups = new FakeGroups(failed(new UnsupportedVersionException("StreamsGroupDescribe is not supported")), dead());

        Group group = new ApplicationReset(groups.admin(), Duration.ofSeconds(1)).group("qf");

        assertThat(group.members()).isZero();
        assertThat(group.exists()).isFalse();
        assertThat(group.note()).contains("does not describe streams groups", "checked as a consumer group only");
    }

    @Test
    void shouldRefuseToGuessWhenTheStreamsGroupCannotBeDescribed() {
        FakeGroups groups = new FakeGroups(failed(new GroupAuthorizationException("not authorized")), dead());

        assertThatThrownBy(() -> new ApplicationReset(groups.admin(), Duration.ofSeconds(1)).group("qf"))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(GroupAuthorizationException.class);
    }

    private static StreamsGroupDescription streams(GroupState state, int members) {
        List<StreamsGroupMemberDescription> described = new ArrayList<>();
        StreamsGroupMemberAssignment none = new StreamsGroupMemberAssignment(List.of(), List.of(), List.of());
        for (int i = 0; i < members; i++) {
            described.add(new StreamsGroupMemberDescription("m" + i, 3, Optional.empty(), Optional.empty(), "c" + i, "/127.0.0.1", 1,
                    "p" + i, Optional.empty(), Map.of(), List.of(), List.of(), none, none, false));
        }
        return new StreamsGroupDescription("qf", 3, 3, 1, List.of(), described, state, Node.noNode(), Set.of());
    }

    private static ConsumerGroupDescription consumer(GroupState state, int members) {
        List<MemberDescription> described = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            described.add(new MemberDescription("m" + i, "c" + i, "/127.0.0.1", new MemberAssignment(Set.of())));
        }
        return new ConsumerGroupDescription("qf", false, described, "", GroupType.CLASSIC, state, Node.noNode(), Set.of(),
                Optional.empty(), Optional.empty());
    }

    /** What describeConsumerGroups answers for a group it does not know: Dead, no members. */
    private static KafkaFuture<ConsumerGroupDescription> dead() {
        return KafkaFuture.completedFuture(consumer(GroupState.DEAD, 0));
    }

    private static <T> KafkaFuture<T> failed(Throwable cause) {
        KafkaFutureImpl<T> future = new KafkaFutureImpl<>();
        future.completeExceptionally(cause);
        return future;
    }

    /** An Admin that answers only the two group descriptions (a proxy: Admin has some sixty methods). */
    private record FakeGroups(KafkaFuture<StreamsGroupDescription> streams, KafkaFuture<ConsumerGroupDescription> consumer) {
        Admin admin() {
            return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, (proxy, method, args) ->
                    switch (method.getName()) {
                        case "describeStreamsGroups" -> new DescribeStreamsGroupsResult(Map.of("qf", streams));
                        case "describeConsumerGroups" -> new DescribeConsumerGroupsResult(Map.of("qf", consumer));
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }
}
