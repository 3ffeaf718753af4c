package io.quotaflow.failure;

import io.quotaflow.ticket.WorkItem;

import java.util.Arrays;

/**
 * A record value as quotaflow may write it: the producer's bytes when they fit, else their first
 * {@code max} bytes, with the size and SHA-256 of the whole (the whole record stays on its origin
 * topic, where {@code dlq replay} reads it from).
 */
public record BoundedValue(byte[] bytes, long originalSize, String originalSha256) {

    public static BoundedValue of(byte[] original, int max) {
        byte[] bytes = original.length <= max ? original : Arrays.copyOf(original, max);
        return new BoundedValue(bytes, original.length, WorkItem.sha256(original));
    }

    public boolean truncated() {
        return bytes.length != originalSize;
    }
}
