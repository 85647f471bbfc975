/**
 * SLOT (purchases and receipts issue): the dashboard's latest 5 purchases with
 * 'SEE MORE' (spec §2 /dashboard). Until that issue lands it says where the
 * purchases will be and links to the purchase history page.
 */
import { Anchor, Card, Group, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';

export function PurchasesPreview() {
  return (
    <Card
      withBorder
      padding="lg"
      data-tour="dashboard-purchases"
      component="section"
      aria-labelledby="purchases-title"
    >
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h3" id="purchases-title">
          Purchase History
        </Title>
        <Anchor component={Link} to="/dashboard/purchasehistory" fw={600}>
          SEE MORE
        </Anchor>
      </Group>
      <Text c="gray.7">Purchases and their receipts will appear here.</Text>
    </Card>
  );
}
