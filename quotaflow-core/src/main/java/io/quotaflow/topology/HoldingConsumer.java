package io.quotaflow.topology;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * A stream thread's main consumer that applies an {@link IntakeHold} before every poll: it pauses
 * the partitions the hold names and resumes them when it lets go, beside the pauses Kafka Streams
 * makes itself, which it keeps apart. Kafka Streams sees only its own pauses ({@code paused()}), a
 * partition it resumes stays paused while held, and one it paused stays paused when the hold lets go.
 *
 * <p>A {@link Proxy} rather than a class that forwards each of {@link Consumer}'s fifty-odd methods:
 * Kafka adds methods to that interface in minor releases, and only {@code poll}, {@code pause},
 * {@code resume} and {@code paused} differ here. Everything else goes to the consumer unchanged.
 * Called on the stream thread only, like the consumer itself.
 */
final class HoldingConsumer implements InvocationHandler {

    private final Consumer<byte[], byte[]> consumer;
    private final IntakeHold hold;
    private final Runnable onHold;
    /** What Kafka Streams paused and has not resumed. */
    private final Set<TopicPartition> pausedByStreams = new HashSet<>();
    /** What the hold paused. */
    private final Set<TopicPartition> held = new HashSet<>();

    private HoldingConsumer(Consumer<byte[], byte[]> consumer, IntakeHold hold, Runnable onHold) {
        this.consumer = consumer;
        this.hold = hold;
        this.onHold = onHold;
    }

    /**
     * {@code consumer} with {@code hold} applied before every poll, calling {@code onHold} each time a
     * hold begins; {@code consumer} itself when the hold is off.
     */
    @SuppressWarnings("unchecked")
    static Consumer<byte[], byte[]> wrap(Consumer<byte[], byte[]> consumer, IntakeHold hold, Runnable onHold) {
        if (!hold.enabled()) {
            return consumer;
        }
        return (Consumer<byte[], byte[]>) Proxy.newProxyInstance(HoldingConsumer.class.getClassLoader(),
                new Class<?>[] {Consumer.class}, new HoldingConsumer(consumer, hold, onHold));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "pause":
                pause((Collection<TopicPartition>) args[0]);
                return null;
            case "resume":
                resume((Collection<TopicPartition>) args[0]);
                return null;
            case "paused":
                return paused();
            case "poll":
                apply();
                return forward(method, args);
            default:
                return forward(method, args);
        }
    }

    private Object forward(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(consumer, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private void pause(Collection<TopicPartition> partitions) {
        pausedByStreams.addAll(partitions);
        consumer.pause(partitions);
    }

    private void resume(Collection<TopicPartition> partitions) {
        pausedByStreams.removeAll(partitions);
        Set<TopicPartition> resumed = new HashSet<>(partitions);
        resumed.removeAll(held);
        consumer.resume(resumed);
    }

    private Set<TopicPartition> paused() {
        Set<TopicPartition> paused = new HashSet<>(consumer.paused());
        for (TopicPartition tp : held) {
            if (!pausedByStreams.contains(tp)) {
                paused.remove(tp);
            }
        }
        return paused;
    }

    /**
     * Pauses what the hold names now and resumes what it let go. A rebalance drops the pause of a
     * partition revoked (and perhaps assigned again since): only what the consumer still has paused
     * counts as paused, by either.
     */
    private void apply() {
        Set<TopicPartition> assigned = consumer.assignment();
        if (!held.isEmpty() || !pausedByStreams.isEmpty()) {
            Set<TopicPartition> pausedNow = consumer.paused();
            pausedByStreams.retainAll(assigned);
            pausedByStreams.retainAll(pausedNow);
            held.retainAll(assigned);
            held.retainAll(pausedNow);
        }
        Set<TopicPartition> now = hold.held(assigned, pausedByStreams, consumer::currentLag);
        if (now.equals(held)) {
            // before nearly every poll: nothing held and nothing to hold, or the same hold goes on
            return;
        }
        Set<TopicPartition> pause = new HashSet<>(now);
        pause.removeAll(held);
        Set<TopicPartition> resume = new HashSet<>(held);
        resume.removeAll(now);
        resume.removeAll(pausedByStreams);
        if (!pause.isEmpty()) {
            if (held.isEmpty()) {
                onHold.run();
            }
            consumer.pause(pause);
        }
        if (!resume.isEmpty()) {
            consumer.resume(resume);
        }
        held.clear();
        held.addAll(now);
    }
}
