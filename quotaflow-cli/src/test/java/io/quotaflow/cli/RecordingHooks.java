package io.quotaflow.cli;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Records the shutdown hooks a command adds and removes instead of touching the JVM's; the test plays the JVM. */
public final class RecordingHooks implements GracefulStop.Hooks {
    public final List<Thread> added = new ArrayList<>();
    public final List<Thread> removed = new ArrayList<>();
    /** The statuses the hook ended the JVM with ({@link GracefulStop.Hooks#halt}). */
    public final List<Integer> halted = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public synchronized void add(Thread hook) {
        added.add(hook);
    }

    @Override
    public synchronized void remove(Thread hook) {
        removed.add(hook);
    }

    /** What {@code main} hands over after a signal; empty: no main (the hook does not halt). */
    public volatile java.util.Optional<Integer> exitStatus = java.util.Optional.empty();

    @Override
    public java.util.Optional<Integer> exitStatus(java.time.Duration wait) {
        return exitStatus;
    }

    @Override
    public void halt(int status) {
        halted.add(status);
    }

    /** What the JVM does on SIGTERM: starts the hook. */
    public synchronized Thread signal() {
        assertThat(added).hasSize(1);
        Thread hook = added.get(0);
        hook.start();
        return hook;
    }
}
