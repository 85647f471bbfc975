/** Creates confirmed users in cognito-local and signs them in, as the accounts flows will. */
import {
  AdminConfirmSignUpCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { inject } from 'vitest';

function client() {
  const { endpoint } = inject('cognito');
  return new CognitoIdentityProviderClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

export async function createSignedInUser(email: string, password = 'correct horse battery') {
  const { userPoolId, clientId } = inject('cognito');
  const cognito = client();
  const signUp = await cognito.send(
    new SignUpCommand({
      ClientId: clientId,
      Username: email,
      Password: password,
      UserAttributes: [{ Name: 'email', Value: email }],
    }),
  );
  await cognito.send(new AdminConfirmSignUpCommand({ UserPoolId: userPoolId, Username: email }));
  const auth = await cognito.send(
    new InitiateAuthCommand({
      ClientId: clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  cognito.destroy();
  const accessToken = auth.AuthenticationResult?.AccessToken;
  if (!signUp.UserSub || !accessToken) throw new Error('cognito-local did not sign the user in');
  return { sub: signUp.UserSub, accessToken };
}
