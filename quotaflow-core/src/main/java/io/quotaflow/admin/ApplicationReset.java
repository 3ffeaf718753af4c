package io.quotaflow.admin;

import org.apache.kafka.common.utils.Time;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code quotaflow reset}: what Kafka's {@code kafka-streams-application-reset} and streams-bootstrap's
 * {@code reset} do, for quotaflow's own topology: the application's internal topics (the dispatch
 * repartition topic and the changelogs) are deleted, the consumer group's offsets on them removed,
 * its input offsets kept or moved, and this machine's local state deleted.
 *
 * <p>{@link #plan} only reads; {@link #execute} does what a plan says, after checking again that no
 * instance has joined the group. "No instance runs" holds under every group protocol: the group is
 * described as a consumer group (the classic and the consumer protocol) and as a streams group
 * ({@code group.protocol=streams}, KIP-1071), and a member of either stops the reset. Only the topics the topology itself makes are deleted (named by
 * {@code QuotaflowTopology.internalTopics}), never a topic merely starting with the application id
 * (another deployment's id may extend ours: {@code quotaflow} and {@code quotaflow-eu}). Running it twice
 * is safe: the second run finds nothing to do.
 *
 * <p>Why not Kafka's {@code StreamsResetter}: it lives in the {@code kafka-tools} artifact (a command-line
 * tool with its own argument parser, not an API), and it picks internal topics by name pattern.
 */
public final class ApplicationReset {

    /** Where the consumer group's committed input offsets go. */
    public enum InputOffsets {
        /** Keep them: the next start goes on where the last one stopped (the default). */
        KEEP,
        /** The beginning of each input topic: every ticket still in the topics is classified again. */
        EARLIEST,
        /** The end of each input topic: tickets not read yet are skipped. */
        LATEST;

        /** The lower-case name used on the command line. */
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What to reset.
     *
     * @param applicationId  the Kafka Streams application id (also its consumer group)
     * @param internalTopics the topics the topology makes under that id
     * @param inputTopics    the input topics whose committed offsets {@code inputOffsets} decides
     * @param inputOffsets   where those offsets go
     * @param localState     this machine's {@code <state.dir>/<application.id>}, or null to leave local state alone
     */
    public record Request(String applicationId, SortedSet<String> internalTopics, List<String> inputTopics,
                          InputOffsets inputOffsets, Path localState) {
        public Request {
            Objects.requireNonNull(applicationId, "applicationId");
            internalTopics = new TreeSet<>(internalTopics);
            inputTopics = List.copyOf(inputTopics);
            Objects.requireNonNull(inputOffsets, "inputOffsets");
            if (localState != null && !localState.getFileName().toString().equals(applicationId)) {
                throw new IllegalArgumentException("local state " + localState + " is not a directory named after the application id "
                        + applicationId);
            }
        }
    }

    /** A committed offset that moves: {@code from} is -1 when none is committed yet. */
    public record OffsetMove(long from, long to) {
    }

    /**
     * The application's group as the coordinator describes it.
     *
     * @param kind    {@code consumer group} (classic or consumer protocol), {@code streams group}, or {@code group} when none exists
     * @param members its members: running instances (a reset needs none)
     * @param state   its state as the coordinator says it ({@code none} when it does not exist)
     * @param note    what could not be checked, or null
     */
    public record Group(String kind, int members, String state, String note) {
        public Group {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(state, "state");
        }

        /** No group of that id exists (under any protocol). */
        public static Group none(String note) {
            return new Group("group", 0, "none", note);
        }

        /** Whether a group of that id exists, so that it may hold committed offsets. */
        public boolean exists() {
            return !"none".equals(state) && !GroupState.DEAD.toString().equals(state);
        }
    }

    /**
     * What a reset would do now.
     *
     * @param request        what was asked
     * @param group          the application's group (a reset needs it without members)
     * @param topics         the internal topics that exist and will be deleted
     * @param committed      the group's committed offsets on those topics (removed first)
     * @param moves          input offsets that move (kept in topic and partition order)
     * @param localState     whether the local state directory exists
     */
    public record Plan(Request request, Group group, SortedSet<String> topics,
                       Set<TopicPartition> committed, Map<TopicPartition, OffsetMove> moves, boolean localState) {
        public Plan {
            Objects.requireNonNull(group, "group");
            topics = new TreeSet<>(topics);
            committed = Set.copyOf(committed);
            SortedMap<TopicPartition, OffsetMove> sorted = new TreeMap<>(PARTITION_ORDER);
            sorted.putAll(moves);
            moves = java.util.Collections.unmodifiableSortedMap(sorted);
        }

        /** True when a reset would change nothing. */
        public boolean nothingToDo() {
            return topics.isEmpty() && committed.isEmpty() && moves.isEmpty() && !localState;
        }

        /** True when an instance is still in the group (a reset would pull its state from under it). */
        public boolean groupActive() {
            return group.members() > 0;
        }

        /** The line that says why a reset refuses now (while {@link #groupActive}). */
        public String running() {
            return group.kind() + " " + request.applicationId() + " has " + group.members() + " member(s) (" + group.state() + ")";
        }

        /** One line per action, as the dry run prints them. */
        public List<String> lines() {
            List<String> lines = new ArrayList<>();
            topics.forEach(t -> lines.add("delete topic " + t));
            if (!committed.isEmpty()) {
                lines.add("delete the committed offsets of group " + request.applicationId() + " on " + committed.size()
                        + " partition(s) of those topics");
            }
            moves.forEach((tp, m) -> lines.add("move offset of " + tp + " from " + (m.from() < 0 ? "none" : m.from()) + " to "
                    + m.to() + " (" + request.inputOffsets().wire() + ")"));
            if (localState) {
                lines.add("delete local state " + request.localState());
            }
            return lines;
        }
    }

    private final Admin admin;
    private final Duration timeout;
    /** Deadlines and elapsed times: Kafka's adapter over the JVM's monotonic clock. */
    private final Time time = Time.SYSTEM;

    public ApplicationReset(Admin admin, Duration timeout) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** What {@code request} would do on the cluster and this machine now; changes nothing. */
    public Plan plan(Request request) throws ExecutionException, InterruptedException, TimeoutException {
        String group = request.applicationId();
        Group described = group(group);

        Set<String> existing = await(admin.listTopics().names());
        SortedSet<String> topics = new TreeSet<>(request.internalTopics());
        topics.retainAll(existing);

        Map<TopicPartition, OffsetAndMetadata> offsets = described.exists() ? committedOffsets(group) : Map.of();
        Set<TopicPartition> committed = new HashSet<>();
        offsets.keySet().stream().filter(tp -> request.internalTopics().contains(tp.topic())).forEach(committed::add);

        SortedMap<TopicPartition, OffsetMove> moves = request.inputOffsets() == InputOffsets.KEEP
                ? new TreeMap<>(PARTITION_ORDER) : moves(request, offsets, existing);
        boolean local = request.localState() != null && Files.isDirectory(request.localState());
        return new Plan(request, described, topics, committed, moves, local);
    }

    /**
     * Does what {@code plan} says, in an order a crash may interrupt safely (offsets, then topics, then local
     * state; running again finishes it), and returns one line per action done.
     *
     * @throws IllegalStateException an instance joined the group since the plan was made
     */
    public List<String> execute(Plan plan) throws ExecutionException, InterruptedException, TimeoutException {
        String group = plan.request().applicationId();
        Group now = group(group);
        if (now.members() > 0) {
            throw new IllegalStateException(now.kind() + " " + group + " has " + now.members() + " member(s) now: stop every instance first");
        }
        List<String> done = new ArrayList<>();
        if (!plan.committed().isEmpty()) {
            await(admin.deleteConsumerGroupOffsets(group, plan.committed()).all());
            done.add("deleted the committed offsets of group " + group + " on " + plan.committed().size() + " partition(s)");
        }
        if (!plan.moves().isEmpty()) {
            Map<TopicPartition, OffsetAndMetadata> to = new LinkedHashMap<>();
            plan.moves().forEach((tp, m) -> to.put(tp, new OffsetAndMetadata(m.to())));
            await(admin.alterConsumerGroupOffsets(group, to).all());
            done.add("moved " + to.size() + " input offset(s) to " + plan.request().inputOffsets().wire());
        }
        if (!plan.topics().isEmpty()) {
            try {
                await(admin.deleteTopics(plan.topics()).all());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
            awaitGone(plan.topics());
            plan.topics().forEach(t -> done.add("deleted topic " + t));
        }
        if (plan.localState()) {
            deleteTree(plan.request().localState());
            done.add("deleted local state " + plan.request().localState());
        }
        return done;
    }

    private static final java.util.Comparator<TopicPartition> PARTITION_ORDER =
            java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private SortedMap<TopicPartition, OffsetMove> moves(Request request, Map<TopicPartition, OffsetAndMetadata> offsets,
                                                       Set<String> existing)
            throws ExecutionException, InterruptedException, TimeoutException {
        List<String> inputs = request.inputTopics().stream().filter(existing::contains).toList();
        Map<String, TopicDescription> described = inputs.isEmpty() ? Map.of() : await(admin.describeTopics(inputs).allTopicNames());
        Map<TopicPartition, OffsetSpec> specs = new LinkedHashMap<>();
        OffsetSpec spec = request.inputOffsets() == InputOffsets.EARLIEST ? OffsetSpec.earliest() : OffsetSpec.latest();
        described.values().forEach(d -> d.partitions().forEach(p -> specs.put(new TopicPartition(d.name(), p.partition()), spec)));
        SortedMap<TopicPartition, OffsetMove> moves = new TreeMap<>(PARTITION_ORDER);
        if (specs.isEmpty()) {
            return moves;
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> targets = await(admin.listOffsets(specs).all());
        targets.forEach((tp, info) -> {
            OffsetAndMetadata current = offsets.get(tp);
            long from = current == null ? -1 : current.offset();
            // none committed and the target is offset 0: the next start reads from there anyway
            if (from != info.offset() && !(from < 0 && info.offset() == 0)) {
                moves.put(tp, new OffsetMove(from, info.offset()));
            }
        });
        return moves;
    }

    /**
     * The group {@code group} under whichever protocol it runs. A streams group (KIP-1071) is not a consumer group:
     * {@code describeConsumerGroups} does not show its members, so it is described as a streams group too. A
     * cluster that does not answer {@code describeStreamsGroups} (UnsupportedVersionException: brokers before
     * Kafka 4.0, or with streams groups not enabled) cannot run a streams group either (its members join with the
     * same protocol's requests), so the consumer-group view is complete there; the plan's note says so.
     */
    Group group(String group) throws ExecutionException, InterruptedException, TimeoutException {
        Group streams;
        String note = null;
        try {
            StreamsGroupDescription d = await(admin.describeStreamsGroups(List.of(group)).describedGroups().get(group));
            streams = new Group("streams group", d.members().size(), d.groupState().toString(), null);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                streams = null; // none, or a group of another type
            } else if (e.getCause() instanceof UnsupportedVersionException) {
                streams = null;
                note = "the cluster does not describe streams groups (" + e.getCause().getMessage()
                        + "): checked as a consumer group only";
            } else {
                throw e;
            }
        }
        if (streams != null && (streams.members() > 0 || streams.exists())) {
            return streams;
        }
        Group consumer = consumerGroup(group, note);
        return consumer != null ? consumer : Group.none(note);
    }

    private Group consumerGroup(String group, String note) throws ExecutionException, InterruptedException, TimeoutException {
        try {
            ConsumerGroupDescription d = await(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group));
            return new Group("consumer group", d.members().size(), d.groupState().toString(), note);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return null;
            }
            throw e;
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> committedOffsets(String group)
            throws ExecutionException, InterruptedException, TimeoutException {
        Map<TopicPartition, OffsetAndMetadata> offsets = await(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        Map<TopicPartition, OffsetAndMetadata> present = new LinkedHashMap<>();
        offsets.forEach((tp, o) -> {
            if (o != null) {
                present.put(tp, o);
            }
        });
        return present;
    }

    /** Topic deletion is asynchronous on the brokers: a start right after would find them "marked for deletion". */
    private void awaitGone(Collection<String> topics) throws ExecutionException, InterruptedException, TimeoutException {
        long deadline = time.nanoseconds() + timeout.toNanos();
        while (true) {
            Set<String> left = new HashSet<>(await(admin.listTopics().names()));
            left.retainAll(topics);
            if (left.isEmpty()) {
                return;
            }
            if (time.nanoseconds() > deadline) {
                throw new TimeoutException("the cluster still lists " + new TreeSet<>(left) + " after " + timeout.toSeconds() + " s");
            }
            Thread.sleep(200);
        }
    }

    private <T> T await(org.apache.kafka.common.KafkaFuture<T> future) throws ExecutionException, InterruptedException, TimeoutException {
        return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static void deleteTree(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root + ": " + e.getMessage(), e);
        }
    }
}
