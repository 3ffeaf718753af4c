package io.quotaflow.testkit;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** The in-process broker's settings ({@link EmbeddedKafkaBroker}): one KRaft node, and its SASL/PLAIN variant with ACLs. */
final class BrokerSettings {

    private BrokerSettings() {
    }

    static Properties brokerProperties(Path dir, int brokerPort, int controllerPort) {
        Properties p = new Properties();
        // KRaft combined mode with a static single-voter quorum: the voter set comes from the
        // configuration, so the controller port may change from one restart to the next.
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(EmbeddedKafkaBroker.NODE_ID));
        p.put("controller.quorum.voters", EmbeddedKafkaBroker.NODE_ID + "@" + EmbeddedKafkaBroker.HOST + ":" + controllerPort);
        p.put("controller.listener.names", EmbeddedKafkaBroker.CONTROLLER_LISTENER);
        p.put("listeners", EmbeddedKafkaBroker.BROKER_LISTENER + "://" + EmbeddedKafkaBroker.HOST + ":" + brokerPort + ","
                + EmbeddedKafkaBroker.CONTROLLER_LISTENER + "://" + EmbeddedKafkaBroker.HOST + ":" + controllerPort);
        p.put("advertised.listeners", EmbeddedKafkaBroker.BROKER_LISTENER + "://" + EmbeddedKafkaBroker.HOST + ":" + brokerPort);
        p.put("listener.security.protocol.map",
                EmbeddedKafkaBroker.BROKER_LISTENER + ":PLAINTEXT," + EmbeddedKafkaBroker.CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("inter.broker.listener.name", EmbeddedKafkaBroker.BROKER_LISTENER);
        p.put("log.dirs", dir.toString());
        p.put("metadata.log.dir", dir.toString());

        // One node: every replication factor and min ISR is 1.
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "5");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("num.partitions", "1");
        p.put("auto.create.topics.enable", "false");

        // Fast and light for local use.
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
        p.put("log.cleaner.threads", "1");
        p.put("num.network.threads", "3");
        p.put("num.io.threads", "8");
        p.put("background.threads", "2");
        p.put("num.replica.fetchers", "1");
        p.put("num.recovery.threads.per.data.dir", "1");
        return p;
    }

    /**
     * The settings that make the client listener {@code SASL_PLAINTEXT} (PLAIN, these users; the
     * broker logs in to it as {@link EmbeddedKafkaBroker#SASL_ADMIN}) and turn on the StandardAuthorizer.
     */
    static Map<String, String> saslProperties(int brokerPort, int controllerPort, Map<String, String> users) {
        String prefix = "listener.name." + EmbeddedKafkaBroker.SASL_LISTENER.toLowerCase(java.util.Locale.ROOT) + ".plain.";
        Map<String, String> p = new java.util.HashMap<>();
        p.put("listeners", EmbeddedKafkaBroker.SASL_LISTENER + "://" + EmbeddedKafkaBroker.HOST + ":" + brokerPort + ","
                + EmbeddedKafkaBroker.CONTROLLER_LISTENER + "://" + EmbeddedKafkaBroker.HOST + ":" + controllerPort);
        p.put("advertised.listeners", EmbeddedKafkaBroker.SASL_LISTENER + "://" + EmbeddedKafkaBroker.HOST + ":" + brokerPort);
        p.put("listener.security.protocol.map",
                EmbeddedKafkaBroker.SASL_LISTENER + ":SASL_PLAINTEXT," + EmbeddedKafkaBroker.CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("inter.broker.listener.name", EmbeddedKafkaBroker.SASL_LISTENER);
        p.put("sasl.enabled.mechanisms", "PLAIN");
        p.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        p.put(prefix + "sasl.jaas.config", plainLogin(EmbeddedKafkaBroker.SASL_ADMIN, users.get(EmbeddedKafkaBroker.SASL_ADMIN), users));
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("super.users", "User:" + EmbeddedKafkaBroker.SASL_ADMIN + ";User:ANONYMOUS");
        p.put("allow.everyone.if.no.acl.found", "false");
        return p;
    }

    static String plainLogin(String user, String password, Map<String, String> users) {
        StringBuilder jaas = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required")
                .append(" username=\"").append(user).append("\" password=\"").append(password).append('"');
        users.forEach((u, pw) -> jaas.append(" user_").append(u).append("=\"").append(pw).append('"'));
        return jaas.append(';').toString();
    }
}
