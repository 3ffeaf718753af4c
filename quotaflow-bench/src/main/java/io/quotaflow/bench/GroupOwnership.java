package io.quotaflow.bench;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberAssignment;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.clients.admin.StreamsGroupSubtopologyDescription;
import org.apache.kafka.common.TopicPartition;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Which instance owns each dispatcher task (by dispatch partition; a scope's partition is a hash of its name, FailoverRunner maps them),
 * as the group coordinator describes the application's group: a classic consumer group's member
 * assignments, or a streams group's (KIP-1071) active tasks. Instances are told apart by their
 * {@code client.id}, which the failover scenario sets to a label per instance; the group's members
 * carry it as the prefix of their own client ids ({@code <label>-StreamThread-1-consumer}).
 */
final class GroupOwnership {

    private GroupOwnership() {
    }

    /** The dispatch (repartition) topic of {@code applicationId}. */
    static String dispatchTopic(String applicationId) {
        return applicationId + "-" + DispatchTopics.REPARTITION + "-repartition";
    }

    /** Partition → instance label now; empty when the group is not there yet or the broker does not answer. */
    static Map<Integer, String> describe(Admin admin, String applicationId, boolean streamsProtocol, List<String> labels) {
        try {
            return streamsProtocol ? streams(admin, applicationId, labels) : classic(admin, applicationId, labels);
        } catch (ExecutionException | TimeoutException e) {
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    private static Map<Integer, String> classic(Admin admin, String applicationId, List<String> labels)
            throws ExecutionException, InterruptedException, TimeoutException {
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(applicationId)).all().get(5, TimeUnit.SECONDS)
                .get(applicationId);
        Map<Integer, String> out = new TreeMap<>();
        String topic = dispatchTopic(applicationId);
        for (MemberDescription m : group.members()) {
            Optional<String> label = label(m.clientId(), labels);
            if (label.isEmpty()) {
                continue;
            }
            for (TopicPartition tp : m.assignment().topicPartitions()) {
                if (tp.topic().equals(topic)) {
                    out.put(tp.partition(), label.get());
                }
            }
        }
        return out;
    }

    private static Map<Integer, String> streams(Admin admin, String applicationId, List<String> labels)
            throws ExecutionException, InterruptedException, TimeoutException {
        StreamsGroupDescription group = admin.describeStreamsGroups(List.of(applicationId)).all().get(5, TimeUnit.SECONDS)
                .get(applicationId);
        String topic = dispatchTopic(applicationId);
        Optional<String> dispatcher = group.subtopologies().stream()
                .filter(s -> s.sourceTopics().contains(topic) || s.repartitionSourceTopics().containsKey(topic))
                .map(StreamsGroupSubtopologyDescription::subtopologyId).findFirst();
        Map<Integer, String> out = new TreeMap<>();
        if (dispatcher.isEmpty()) {
            return out;
        }
        for (StreamsGroupMemberDescription m : group.members()) {
            Optional<String> label = label(m.clientId(), labels);
            if (label.isEmpty()) {
                continue;
            }
            for (StreamsGroupMemberAssignment.TaskIds t : m.assignment().activeTasks()) {
                if (t.subtopologyId().equals(dispatcher.get())) {
                    t.partitions().forEach(p -> out.put(p, label.get()));
                }
            }
        }
        return out;
    }

    /** The label whose {@code <label>-} starts {@code clientId}, if any. */
    static Optional<String> label(String clientId, List<String> labels) {
        return labels.stream().filter(l -> clientId != null && (clientId.equals(l) || clientId.startsWith(l + "-"))).findFirst();
    }
}
