package io.quotaflow.settings;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The HTTP server's TLS identity ({@code http.tls.*}): a private key and its certificate chain, read
 * from a PEM pair or from a PKCS12 keystore. It serves HTTPS ({@link #serverContext()}) and checks
 * the other instances when forwarding to them ({@link #peerContext()}). Problems are
 * {@link IllegalArgumentException}s that say what is wrong with which file, never a password.
 */
public final class TlsIdentity {

    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");
    private static final char[] IN_MEMORY = "quotaflow".toCharArray();
    private static final String ALIAS = "quotaflow";

    private final KeyStore keyStore;
    private final char[] password;
    private final List<X509Certificate> chain;
    private final String source;
    /** The files this identity was read from (a reload reads them again); empty: built in memory. */
    private final List<Path> files;
    /** Reads the same files again. */
    private final Supplier<TlsIdentity> reader;
    /** Certificate authorities peer forwarding trusts besides the JVM's ({@code http.tls.ca-file}). */
    private final List<X509Certificate> authorities;

    private TlsIdentity(KeyStore keyStore, char[] password, List<X509Certificate> chain, String source) {
        this(keyStore, password, chain, source, List.of(), null, List.of());
    }

    private TlsIdentity(KeyStore keyStore, char[] password, List<X509Certificate> chain, String source, List<Path> files,
                        Supplier<TlsIdentity> reader, List<X509Certificate> authorities) {
        this.keyStore = keyStore;
        this.password = password.clone();
        this.chain = List.copyOf(chain);
        this.source = source;
        this.files = List.copyOf(files);
        this.reader = reader;
        this.authorities = List.copyOf(authorities);
    }

    private TlsIdentity reading(List<Path> from, Supplier<TlsIdentity> again) {
        return new TlsIdentity(keyStore, password, chain, source, from, again, authorities);
    }

    /**
     * This identity, its peers' certificates also checked against the PEM certificate authorities in
     * {@code caFile} ({@code http.tls.ca-file}), which a reload reads again too.
     */
    public TlsIdentity trusting(Path caFile) {
        List<X509Certificate> cas = certificates(caFile, Keys.HTTP_TLS_CA_FILE);
        List<Path> all = new ArrayList<>(files);
        all.add(caFile);
        Supplier<TlsIdentity> again = reader == null ? null : () -> reader.get().trusting(caFile);
        return new TlsIdentity(keyStore, password, chain, source, all, again, cas);
    }

    /** The files to watch for a reload (certificate, key or keystore, CA); empty when built in memory. */
    public List<Path> files() {
        return files;
    }

    /**
     * The identity its files hold now; an {@link IllegalArgumentException} if they do not make one
     * (half-written during a rotation, say), this identity itself when it was not read from files.
     */
    public TlsIdentity reload() {
        return reader == null ? this : reader.get();
    }

    /** The certificate authorities of {@code http.tls.ca-file}, if set. */
    public List<X509Certificate> authorities() {
        return authorities;
    }

    /**
     * The PEM certificate chain in {@code certFile} (the server's certificate first) with the PEM
     * private key in {@code keyFile}: PKCS#8 ({@code BEGIN PRIVATE KEY}) or PKCS#1 RSA
     * ({@code BEGIN RSA PRIVATE KEY}), unencrypted.
     */
    public static TlsIdentity fromPem(Path certFile, Path keyFile) {
        List<X509Certificate> chain = certificates(certFile, Keys.HTTP_TLS_CERT_FILE);
        PrivateKey key = privateKey(keyFile, chain.get(0));
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(ALIAS, key, IN_MEMORY, chain.toArray(new Certificate[0]));
            return new TlsIdentity(store, IN_MEMORY, chain, "PEM " + certFile)
                    .reading(List.of(certFile, keyFile), () -> fromPem(certFile, keyFile));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("http.tls.cert-file " + certFile + " and http.tls.key-file " + keyFile
                    + " cannot be combined: " + e.getMessage(), e);
        }
    }

    /** The PKCS12 keystore {@code file}, opened with {@code password} (which also protects its key). */
    public static TlsIdentity fromPkcs12(Path file, Secret password) {
        char[] pw = password.reveal().toCharArray();
        KeyStore store;
        try (InputStream in = Files.newInputStream(readable(file, Keys.HTTP_TLS_KEYSTORE_FILE))) {
            store = KeyStore.getInstance("PKCS12");
            store.load(in, pw);
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new IllegalArgumentException("http.tls.keystore-file " + file + " cannot be opened with the password "
                        + "in http.tls.keystore-password-file (wrong password?)", e);
            }
            throw new IllegalArgumentException("http.tls.keystore-file " + file + " is not a PKCS12 keystore ("
                    + e.getMessage() + ")", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("http.tls.keystore-file " + file + " cannot be read: " + e.getMessage(), e);
        }
        try {
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    store.getKey(alias, pw);
                    List<X509Certificate> chain = new ArrayList<>();
                    for (Certificate c : store.getCertificateChain(alias)) {
                        chain.add((X509Certificate) c);
                    }
                    return new TlsIdentity(store, pw, chain, "PKCS12 " + file).reading(List.of(file), () -> fromPkcs12(file, password));
                }
            }
        } catch (UnrecoverableKeyException e) {
            throw new IllegalArgumentException("http.tls.keystore-file " + file + ": its key cannot be recovered with the "
                    + "password in http.tls.keystore-password-file (a key password other than the store's is not supported)", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("http.tls.keystore-file " + file + " cannot be read: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("http.tls.keystore-file " + file + " holds no private key with its certificate");
    }

    /** The context HTTPS is served with. */
    public SSLContext serverContext() {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(keyStore, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("TLS context of " + source + ": " + e.getMessage(), e);
        }
    }

    /**
     * The context peer forwarding connects with: it trusts the JVM's certificate authorities and
     * the certificates of this identity's own chain (so instances sharing a certificate, or
     * certificates of one CA whose certificate is in the chain, trust each other) and those of
     * {@code http.tls.ca-file}; the host name is verified as usual (the JDK's HttpClient checks the
     * peer's certificate names the host it was asked for: its advertised host).
     */
    public SSLContext peerContext() {
        try {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            int i = 0;
            for (X509Certificate c : chain) {
                trusted.setCertificateEntry("own-" + i++, c);
            }
            for (X509Certificate c : authorities) {
                trusted.setCertificateEntry("ca-file-" + i++, c);
            }
            TrustManagerFactory defaults = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            defaults.init((KeyStore) null);
            for (var manager : defaults.getTrustManagers()) {
                if (manager instanceof X509TrustManager x509) {
                    for (X509Certificate ca : x509.getAcceptedIssuers()) {
                        trusted.setCertificateEntry("ca-" + i++, ca);
                    }
                }
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), new SecureRandom());
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("peer TLS context of " + source + ": " + e.getMessage(), e);
        }
    }

    /** The certificate chain, the server's own first. */
    public List<X509Certificate> chain() {
        return chain;
    }

    /** Where the identity came from and whose it is, for logs: never a password. */
    @Override
    public String toString() {
        return source + " (" + chain.get(0).getSubjectX500Principal().getName() + ", valid until " + chain.get(0).getNotAfter().toInstant() + ")";
    }

    private static List<X509Certificate> certificates(Path file, String key) {
        byte[] bytes = read(file, key);
        List<X509Certificate> chain = new ArrayList<>();
        try {
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(bytes))) {
                chain.add((X509Certificate) c);
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException(key + " " + file + " is not a PEM certificate chain (" + e.getMessage() + ")", e);
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException(key + " " + file + " holds no certificate (expected -----BEGIN CERTIFICATE-----)");
        }
        return chain;
    }

    private static PrivateKey privateKey(Path file, X509Certificate certificate) {
        String text = new String(read(file, Keys.HTTP_TLS_KEY_FILE), StandardCharsets.US_ASCII);
        Matcher m = PEM.matcher(text);
        while (m.find()) {
            String type = m.group(1);
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(m.group(2).replaceAll("\\s", ""));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("http.tls.key-file " + file + ": its " + type + " block is not valid base64", e);
            }
            switch (type) {
                case "PRIVATE KEY":
                    return checked(decode(der, certificate, file), certificate, file);
                case "RSA PRIVATE KEY":
                    return checked(decode(pkcs8OfRsa(der), certificate, file), certificate, file);
                case "ENCRYPTED PRIVATE KEY":
                    throw new IllegalArgumentException("http.tls.key-file " + file + " is encrypted: decrypt it "
                            + "(openssl pkcs8 -in KEY -nocrypt -out KEY.pem) or use http.tls.keystore-file (PKCS12) with its password file");
                case "EC PRIVATE KEY":
                    throw new IllegalArgumentException("http.tls.key-file " + file + " is an SEC1 EC key: convert it to "
                            + "PKCS#8 (openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pem)");
                default:
                    // a certificate or parameters block next to the key: skip it
            }
        }
        throw new IllegalArgumentException("http.tls.key-file " + file + " holds no PEM private key "
                + "(expected -----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----)");
    }

    private static PrivateKey decode(byte[] pkcs8, X509Certificate certificate, Path file) {
        String algorithm = certificate.getPublicKey().getAlgorithm();
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("http.tls.key-file " + file + " is not a " + algorithm + " private key, as the "
                    + "certificate's key is (" + e.getMessage() + ")", e);
        }
    }

    /** The key, once it is known to belong to {@code certificate}: it signs what the certificate's public key verifies. */
    private static PrivateKey checked(PrivateKey key, X509Certificate certificate, Path file) {
        String algorithm = switch (key.getAlgorithm().toUpperCase(Locale.ROOT)) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "ED25519", "EDDSA" -> "Ed25519";
            default -> null;
        };
        if (algorithm == null) {
            return key;
        }
        try {
            byte[] probe = "quotaflow".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            if (verifier.verify(signature)) {
                return key;
            }
        } catch (GeneralSecurityException e) {
            // not a matching pair: said below
        }
        throw new IllegalArgumentException("http.tls.key-file " + file + " is not the key of the certificate in http.tls.cert-file ("
                + certificate.getSubjectX500Principal().getName() + ")");
    }

    /** PKCS#1 RSAPrivateKey wrapped as PKCS#8 PrivateKeyInfo (version 0, rsaEncryption, NULL parameters). */
    static byte[] pkcs8OfRsa(byte[] pkcs1) {
        byte[] algorithm = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0x02, 0x01, 0x00});
        body.writeBytes(algorithm);
        body.write(0x04);
        body.writeBytes(derLength(pkcs1.length));
        body.writeBytes(pkcs1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x30);
        out.writeBytes(derLength(body.size()));
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    private static byte[] derLength(int length) {
        if (length < 0x80) {
            return new byte[] {(byte) length};
        }
        if (length < 0x100) {
            return new byte[] {(byte) 0x81, (byte) length};
        }
        if (length < 0x10000) {
            return new byte[] {(byte) 0x82, (byte) (length >> 8), (byte) length};
        }
        return new byte[] {(byte) 0x83, (byte) (length >> 16), (byte) (length >> 8), (byte) length};
    }

    private static byte[] read(Path file, String key) {
        try {
            return Files.readAllBytes(readable(file, key));
        } catch (IOException e) {
            throw new IllegalArgumentException(key + " " + file + " cannot be read (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    private static Path readable(Path file, String key) {
        if (!Files.exists(file)) {
            throw new IllegalArgumentException(key + " " + file + ": no such file");
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(key + " " + file + " is a directory, not a file");
        }
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException(key + " " + file + " is not readable");
        }
        return file;
    }
}
