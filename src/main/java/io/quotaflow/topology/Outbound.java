package io.quotaflow.topology;

/** A record the dispatcher or the intake sends out: where to, and the value bytes. */
public record Outbound(Target target, byte[] value) {

    public enum Target {
        CLASSIFIED, RETRY, DEAD_LETTER
    }
}
