import { Navigate, useNavigate, useParams } from 'react-router';
import { useAuth } from '#client/lib/auth.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useSetUp, useSetupLink } from './api/one-time-links.ts';
import { AuthCard, LinkProblem } from './components/auth-card.tsx';
import { ChoosePasswordForm } from './components/choose-password-form.tsx';

export const SETUP_LINK_NOT_VALID =
  'This set-up link is not valid: the first owner exists already, or the server restarted and printed a new link in its log.';

/** /setup/:token: the first run. Whoever opens the link printed at start-up creates the first owner and is signed in. */
export function SetupPage() {
  const { token = '' } = useParams();
  const { user, loading, adopt } = useAuth();
  const navigate = useNavigate();
  const link = useSetupLink(token);
  const setUp = useSetUp();

  if (loading || link.isPending) return <Spinner className="min-h-screen" label="Checking the set-up link..." />;
  if (user) return <Navigate to="/dashboard" replace />;
  if (link.isError) return <LinkProblem title="Set up the CRM" message={SETUP_LINK_NOT_VALID} />;

  return (
    <AuthCard title="Set up the CRM" subtitle="Create the first owner: the account that manages the team and the settings.">
      <ChoosePasswordForm
        askName
        email={{ editable: true }}
        submitLabel="Create owner account"
        busyLabel="Creating..."
        onSubmit={async ({ display_name, email, password, confirm }) => {
          const result = await setUp.mutateAsync({ token, display_name, email, password, confirm });
          adopt(result.user);
          void navigate('/dashboard', { replace: true });
        }}
      />
    </AuthCard>
  );
}
