package io.quotaflow.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the CPU of a measured window went, by who spent it: the pipeline's stream thread, the rest
 * of the pipeline (its producers, the model client's HTTP threads, the status server), the
 * in-process broker, the provider simulator, and the bench itself (publisher and result reader).
 *
 * <p>Benchmark (i) runs all of them in one JVM on the same cores, so its tickets per second say
 * what this machine does with everything on it, not what the pipeline would do on cores of its
 * own. Thread CPU time ({@link ThreadMXBean}) separates the two. What the JVM spends outside Java
 * threads (the JIT compilers, the garbage collector) is the process's CPU time less the sum, shown
 * as {@link Group#JVM}; a thread that ended inside the window is counted there too.
 *
 * @param threadNanos CPU nanoseconds per live thread id when the snapshot was taken
 * @param names       the threads' names
 * @param processNanos the whole process's CPU nanoseconds
 */
public record CpuUse(Map<Long, Long> threadNanos, Map<Long, String> names, long processNanos) {

    /** Who spent the CPU. */
    public enum Group {
        STREAM_THREAD("stream thread"),
        PIPELINE_OTHER("rest of the pipeline"),
        BROKER("broker"),
        SIMULATOR("simulator"),
        BENCH("bench publisher and reader"),
        JVM("JIT, GC and ended threads");

        private final String label;

        Group(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public CpuUse {
        threadNanos = Map.copyOf(threadNanos);
        names = Map.copyOf(names);
    }

    /** The CPU times of every live thread of this JVM now. */
    public static CpuUse now() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long nanos = threads.getThreadCpuTime(info.getThreadId());
            if (nanos >= 0) {
                cpu.put(info.getThreadId(), nanos);
                names.put(info.getThreadId(), info.getThreadName());
            }
        }
        long process = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
        return new CpuUse(cpu, names, process);
    }

    /**
     * Who a thread works for, by its name: the pipeline's threads carry its application id (the
     * stream threads, and their producers' network threads), or are the model client's and the
     * status server's; the simulator's and the bench's threads have their own prefixes; the rest of
     * a JVM that runs a broker is the broker's.
     */
    static Group groupOf(String thread, String applicationId) {
        Objects.requireNonNull(thread, "thread");
        // Streams names its clients <application id>-<process UUID>: its threads, and its producers' network threads
        Matcher client = STREAMS_CLIENT.matcher(thread);
        boolean pipeline = client.find() && client.group(1).endsWith(applicationId);
        if (pipeline && !thread.contains("|") && client.group(2).startsWith("StreamThread-")) {
            return Group.STREAM_THREAD;
        }
        // the OpenTelemetry SDK's span exporter and its OTLP sender's threads: tracing's cost is the pipeline's
        if (pipeline || thread.startsWith("quotaflow-http-") || thread.startsWith("HttpClient-") || thread.equals("quotaflow-status")
                || thread.startsWith("BatchSpanProcessor_WorkerThread") || thread.startsWith("OkHttp")) {
            return Group.PIPELINE_OTHER;
        }
        if (thread.startsWith("quotaflow-sim-") || thread.startsWith("HTTP-Dispatcher")) {
            return Group.SIMULATOR;
        }
        if (thread.equals("main") || thread.contains("| quotaflow-publish")) {
            return Group.BENCH;
        }
        return Group.BROKER;
    }

    /** {@code <client id>-<process UUID>-<thread>}: group 1 ends with the application id, group 2 is the thread. */
    private static final Pattern STREAMS_CLIENT = Pattern.compile(
            "(\\S+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-(\\S+)");

    /** CPU nanoseconds spent from {@code start} to this snapshot, per group. */
    public Map<Group, Long> since(CpuUse start, String applicationId) {
        Map<Group, Long> spent = new EnumMap<>(Group.class);
        for (Group g : Group.values()) {
            spent.put(g, 0L);
        }
        long attributed = 0;
        for (Map.Entry<Long, Long> t : threadNanos.entrySet()) {
            long before = start.threadNanos.getOrDefault(t.getKey(), 0L);
            long used = Math.max(0, t.getValue() - before);
            spent.merge(groupOf(names.get(t.getKey()), applicationId), used, Long::sum);
            attributed += used;
        }
        spent.put(Group.JVM, Math.max(0, processNanos - start.processNanos - attributed));
        return spent;
    }

    /**
     * One line: CPU microseconds per ticket by group, and what the pipeline's own threads would do
     * on {@code cores} cores of their own (derived, not measured: bounded both by all of its threads'
     * CPU over the cores and by its single stream thread's CPU over one core).
     */
    public static String describe(Map<Group, Long> spent, long tickets, int cores) {
        if (tickets <= 0) {
            return "CPU per ticket: no tickets";
        }
        StringBuilder line = new StringBuilder("CPU per ticket:");
        long total = 0;
        for (Map.Entry<Group, Long> g : spent.entrySet()) {
            total += g.getValue();
            line.append(String.format(Locale.ROOT, " %s %.0f µs,", g.getKey().label(), g.getValue() / 1000.0 / tickets));
        }
        line.append(String.format(Locale.ROOT, " in all %.0f µs", total / 1000.0 / tickets));
        long stream = spent.getOrDefault(Group.STREAM_THREAD, 0L);
        long pipeline = stream + spent.getOrDefault(Group.PIPELINE_OTHER, 0L);
        if (stream > 0) {
            double byAll = cores * 1e9 * tickets / pipeline;
            double byStream = 1e9 * tickets / stream;
            line.append(String.format(Locale.ROOT, "; derived: the pipeline's own threads on %d cores of their own would do "
                    + "%,.0f tickets/s (all its threads: %,.0f/s; its one stream thread on one core: %,.0f/s)", cores,
                    Math.min(byAll, byStream), byAll, byStream));
        }
        return line.toString();
    }
}
