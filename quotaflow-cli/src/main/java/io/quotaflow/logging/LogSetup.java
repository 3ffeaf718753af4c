package io.quotaflow.logging;

import io.quotaflow.settings.Keys;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.joran.util.ConfigurationWatchListUtil;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

import java.net.URL;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Applies {@code log.format}, {@code log.level} and {@code --verbose} to the logging configuration
 * ({@code logback.xml}): sets the system properties it reads ({@code quotaflow.log.format},
 * {@code quotaflow.log.level}, {@code quotaflow.log.others}) and reloads it when one changed. Also
 * routes {@code java.util.logging} into SLF4J, so that every line has one layout. When logback is not
 * the backend (a test classpath with another), it does nothing.
 */
public final class LogSetup {

    /** {@code text} or {@code json}: the appender logback.xml writes with. */
    public static final String FORMAT_PROPERTY = "quotaflow.log.format";
    /** The level of quotaflow's own loggers ({@code io.quotaflow}). */
    public static final String LEVEL_PROPERTY = "quotaflow.log.level";
    /** The level of every other logger (Kafka's clients): WARN, or INFO with {@code --verbose}. */
    public static final String OTHERS_PROPERTY = "quotaflow.log.others";

    private LogSetup() {
    }

    /**
     * Sets the format ({@code text|json}), quotaflow's level and whether everything logs at INFO
     * ({@code verbose}); null keeps what is set. Reloads the configuration only when something changed.
     */
    public static synchronized void apply(String format, String level, boolean verbose) {
        // the properties first: when logback has not started yet, it starts with them
        boolean changed = set(FORMAT_PROPERTY, format == null ? null : format.strip().toLowerCase(Locale.ROOT));
        changed |= set(LEVEL_PROPERTY, level == null ? null : level.strip().toUpperCase(Locale.ROOT));
        changed |= set(OTHERS_PROPERTY, verbose ? "INFO" : null);
        bridgeJavaUtilLogging();
        if (changed) {
            reload();
        }
    }

    /** {@code log.format} and {@code log.level} of resolved settings (keys as in the configuration table). */
    public static void apply(Map<String, String> settings, boolean verbose) {
        apply(settings.get(Keys.LOG_FORMAT), settings.get(Keys.LOG_LEVEL), verbose);
    }

    /** Sends java.util.logging's records to SLF4J instead of its own console handler (once). */
    static void bridgeJavaUtilLogging() {
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
    }

    private static boolean set(String property, String value) {
        if (value == null || Objects.equals(System.getProperty(property), value)) {
            return false;
        }
        System.setProperty(property, value);
        return true;
    }

    /** Reads the configuration file logback started with again, now with the properties set. */
    private static void reload() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!(factory instanceof LoggerContext context)) {
            return;
        }
        URL config = ConfigurationWatchListUtil.getMainWatchURL(context);
        if (config == null) {
            return;
        }
        context.reset();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        try {
            configurator.doConfigure(config);
        } catch (JoranException e) {
            // logback has printed its own status lines on stderr; the lines go on with its defaults
            System.err.println("logging: could not reload " + config + ": " + e.getMessage());
        }
    }
}
