import { ROLE_LABEL } from '#shared/constants';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '#client/lib/api-client.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useAcceptInvite, useInviteLookup } from './api/one-time-links.ts';
import { AuthCard, LinkProblem } from './components/auth-card.tsx';
import { ChoosePasswordForm } from './components/choose-password-form.tsx';
import { Button } from '#client/components/ui/button.tsx';

const NOT_VALID =
  'This invitation link is not valid any more: it was used, withdrawn or is older than 72 hours. Ask an owner of your team for a new one.';

/** /invite/:token: an invitation from an owner. Choosing a password creates the account, signed in. */
export function InvitePage() {
  const { token = '' } = useParams();
  const { user, loading, adopt, signOut } = useAuth();
  const navigate = useNavigate();
  const invite = useInviteLookup(token);
  const accept = useAcceptInvite();

  if (loading || invite.isPending) return <Spinner className="min-h-screen" label="Checking the invitation..." />;
  if (invite.isError) {
    const message =
      invite.error instanceof ApiError && invite.error.status === 404
        ? NOT_VALID
        : 'The invitation could not be checked. Please try again.';
    return <LinkProblem title="Join the team" message={message} />;
  }
  const { email, role } = invite.data;
  if (user) {
    return (
      <AuthCard title="Join the team">
        <p className="mt-6 text-sm text-slate-700">
          You are signed in as {user.email}. To accept this invitation for {email}, sign out first.
        </p>
        <Button onClick={() => void signOut()} variant="secondary" size="block" className="mt-4">
          Sign out
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Join the team"
      subtitle={`You are invited as ${ROLE_LABEL[role]}. Give your name and choose a password to create your account.`}
    >
      <ChoosePasswordForm
        askName
        email={{ editable: false, value: email }}
        submitLabel="Create account"
        busyLabel="Creating..."
        onSubmit={async ({ display_name, password, confirm }) => {
          const result = await accept.mutateAsync({ token, display_name, password, confirm });
          adopt(result.user);
          void navigate('/dashboard', { replace: true });
        }}
      />
    </AuthCard>
  );
}
