package io.quotaflow.cli;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Records the shutdown hooks a command adds and removes instead of touching the JVM's; the test plays the JVM. */
public final class RecordingHooks implements GracefulStop.Hooks {
    public final List<Thread> added = new ArrayList<>();
    public final List<Thread> removed = new ArrayList<>();

    @Override
    public synchronized void add(Thread hook) {
        added.add(hook);
    }

    @Override
    public synchronized void remove(Thread hook) {
        removed.add(hook);
    }

    /** What the JVM does on SIGTERM: starts the hook. */
    public synchronized Thread signal() {
        assertThat(added).hasSize(1);
        Thread hook = added.get(0);
        hook.start();
        return hook;
    }
}
