package io.quotaflow.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * Micrometer's JVM and process binders: memory, GC, threads, class loading, CPU, uptime, file
 * descriptors; and {@code process_cpu_seconds_total}, the CPU time in the unit Prometheus expects
 * (Micrometer's own is in nanoseconds, {@link PageMeterFilter}).
 */
public final class ProcessMetrics implements AutoCloseable {

    private final JvmGcMetrics gc = new JvmGcMetrics();

    private ProcessMetrics() {
    }

    /** Binds every binder to {@code registry}; close it to stop listening for GC events. */
    public static ProcessMetrics bindTo(MeterRegistry registry) {
        ProcessMetrics metrics = new ProcessMetrics();
        new JvmMemoryMetrics().bindTo(registry);
        metrics.gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            FunctionCounter.builder("process.cpu.seconds", sun, b -> Math.max(0, b.getProcessCpuTime()) / 1e9)
                    .description("CPU time the process used").register(registry);
        }
        return metrics;
    }

    @Override
    public void close() {
        gc.close();
    }
}
