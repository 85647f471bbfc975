/*
 * DynamoDB Local, listening on 127.0.0.1 only.
 *
 * Amazon's jar has no host option: its server is `new org.eclipse.jetty.server.Server(port)`,
 * which listens on every interface, so anyone on the network could read and
 * write the local database. This launcher builds the same server from the same
 * command-line options (ServerRunner.createServerFromCommandLineArgs), sets the
 * host of its Jetty connectors to 127.0.0.1 before it starts, and runs it.
 *
 * Run with Java's single-file source launcher (no build step; the JRE has the
 * compiler module), DynamoDBLocal.jar on the class path:
 *   java -cp DynamoDBLocal.jar infra/local/LoopbackDynamoDbLocal.java -port 8000 -inMemory
 * Telemetry is never configured here, so nothing is sent to AWS.
 */
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LoopbackDynamoDbLocal {
  static final String HOST = "127.0.0.1";

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    // The proxy keeps its Jetty server in a private field and offers no accessor.
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind");
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector)) {
        throw new IllegalStateException("Unexpected connector " + connector.getClass().getName());
      }
      ((ServerConnector) connector).setHost(HOST);
    }
    proxy.safeStart();
    System.out.println("DynamoDB Local listening on " + HOST + ":" + ((ServerConnector) connectors[0]).getLocalPort());
    proxy.join();
  }
}
