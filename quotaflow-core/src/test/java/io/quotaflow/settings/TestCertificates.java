package io.quotaflow.settings;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed certificates for tests, made by the JDK's {@code keytool} (for {@code localhost} and
 * {@code 127.0.0.1}, valid two days): a PKCS12 keystore, and the same key and certificate as PEM.
 */
public final class TestCertificates {

    /** The keystore's password (also in {@link #passwordFile}). */
    public static final String PASSWORD = "test-keystore-pw";

    /** A keystore with its password file and the PEM pair of the same key. */
    public record Files4(Path keystore, Path passwordFile, Path certPem, Path keyPem) {
    }

    private TestCertificates() {
    }

    /** A new key of {@code algorithm} ({@code EC} or {@code RSA}) under {@code dir}, named {@code name}. */
    public static Files4 generate(Path dir, String name, String algorithm) throws IOException, InterruptedException {
        Path keystore = dir.resolve(name + ".p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        List<String> size = algorithm.equals("EC") ? List.of("-groupname", "secp256r1") : List.of("-keysize", "2048");
        List<String> command = new java.util.ArrayList<>(List.of(keytool, "-genkeypair", "-alias", name, "-keyalg", algorithm));
        command.addAll(size);
        command.addAll(List.of("-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD, "-noprompt"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        Path passwordFile = Files.writeString(dir.resolve(name + ".pw"), PASSWORD + "\n");
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            Key key = store.getKey(name, PASSWORD.toCharArray());
            Path certPem = Files.writeString(dir.resolve(name + ".crt"), pem("CERTIFICATE", store.getCertificate(name).getEncoded()));
            Path keyPem = Files.writeString(dir.resolve(name + ".key"), pem("PRIVATE KEY", key.getEncoded()));
            return new Files4(keystore, passwordFile, certPem, keyPem);
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    /** {@code der} as a PEM block of {@code type}. */
    public static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** The PKCS#1 RSAPrivateKey inside a PKCS#8 PrivateKeyInfo of an RSA key (the content of its OCTET STRING). */
    public static byte[] pkcs1Of(byte[] pkcs8) {
        int i = 1 + lengthOfLength(pkcs8, 1); // outer SEQUENCE header
        i += 3;                              // INTEGER 0
        i += 2 + (pkcs8[i + 1] & 0xff);      // AlgorithmIdentifier SEQUENCE
        i += 1 + lengthOfLength(pkcs8, i + 1); // OCTET STRING header
        return Arrays.copyOfRange(pkcs8, i, pkcs8.length);
    }

    private static int lengthOfLength(byte[] der, int at) {
        int first = der[at] & 0xff;
        return first < 0x80 ? 1 : 1 + (first & 0x7f);
    }
}
