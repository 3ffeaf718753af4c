package io.quotaflow.dispatch.queue;

import io.quotaflow.records.Priority;
import io.quotaflow.status.QueueView;

import java.util.List;
import java.util.Map;

/** What {@link PendingQueue#served(int, int)} found: the first tickets, and the rotation of each class not listed to its end. */
public record Served(List<Map.Entry<Priority, PendingQueue.Ref>> first, Map<Priority, QueueView.Rotation> rotations) {
}
