package io.quotaflow.simulator;

/**
 * One call an {@link EngineMode engine} ran.
 *
 * @param atMs      when it started, in milliseconds since the simulator's start
 * @param running   the calls running with it (itself included)
 * @param latencyMs how long it took: its unloaded latency × the engine's slowdown at {@code running}
 */
public record EngineCall(long atMs, int running, long latencyMs) {
}
